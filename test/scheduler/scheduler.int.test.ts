/**
 * The durable agenda on a real store and actor, driven by a fake clock: a job fires once at its
 * due time and never again, a job moved or removed by a later decision follows that decision,
 * jobs survive a restart, a job found later than catchUpMinutes is handed over as missed, and a
 * failing handler does not lose its job.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createLogger } from '../../src/logger.js';
import { Store } from '../../src/store/store.js';
import { areaReactions } from '../../src/domain/areas.js';
import { FamilyRegistry } from '../../src/family/registry.js';
import { createFamily } from '../../src/family/admin.js';
import { createIdGenerator } from '../../src/domain/shared/ids.js';
import type { AgendaChange, Command, FamilyInfo } from '../../src/domain/shared/state.js';
import { fireCommand, Scheduler, type JobHandler } from '../../src/scheduler/scheduler.js';
import { tempDataDir } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';
import type { AgendaJob } from '../../src/domain/shared/state.js';
import type { JobHandlers } from '../../src/scheduler/scheduler.js';

const ref = { keyId: 'k', personId: null };

/** A command that only changes the agenda. */
function schedule(...agenda: AgendaChange[]): Command<void> {
  return () => ({ result: undefined, changes: [], events: [], agenda });
}

describe('the scheduler and its durable agenda', () => {
  let dir: string;
  let store: Store;
  let family: FamilyInfo;
  const clock = new FakeClock('2026-03-28T12:00:00.000Z');
  const newId = createIdGenerator(
    () => clock.now().getTime(),
    (n) => randomBytes(n),
  );
  const logger = createLogger('silent');
  let fired: { id: string; missed: boolean; at: string }[];

  /** Records each firing as a record of the family, in the firing's own decision. */
  const record: JobHandler = async (job, { actor, missed, now }) => {
    await actor.execute(
      fireCommand(job, () => ({
        result: undefined,
        events: [],
        changes: [
          {
            table: 'fired',
            id: `${job.id}@${job.dueAt}`,
            value: { id: job.id, missed, at: now.toISOString() },
          },
        ],
      })),
      ref,
    );
    fired.push({ id: job.id, missed, at: now.toISOString() });
  };

  function start(handlers: Record<string, JobHandler> = { test: record }) {
    const registry = new FamilyRegistry(
      { store, now: clock.now, newId, publicUrl: 'http://x', react: areaReactions() },
      { idleMs: 60_000, maxActive: 10 },
    );
    const scheduler = new Scheduler({
      store,
      registry,
      now: clock.now,
      logger,
      catchUpMinutes: 360,
      // Kinds of this test only: the daemon's table must name every real kind.
      handlers: handlers as unknown as JobHandlers,
    });
    return { registry, scheduler };
  }

  beforeEach(async () => {
    fired = [];
    clock.set('2026-03-28T12:00:00.000Z');
    dir = tempDataDir();
    store = Store.open(dir);
    family = (
      await createFamily(
        store,
        { slug: 'home' },
        { now: clock.now(), newId, defaultTimezone: 'UTC' },
      )
    ).family;
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fires a job once at its due time, with its effect and its removal in one decision', async () => {
    const { registry, scheduler } = start();
    const actor = await registry.get(family);
    const due = clock.now().getTime() + 3_600_000;
    await actor.execute(
      schedule({ put: { id: 'j1', kind: 'test', dueAt: due } as unknown as AgendaJob }),
      ref,
    );
    expect(await scheduler.runDue()).to.equal(0);
    clock.set(new Date(due - 1));
    expect(await scheduler.runDue()).to.equal(0);
    clock.set(new Date(due));
    // Two passes at once (a timer and a test) still fire it once.
    await Promise.all([scheduler.runDue(), scheduler.runDue()]);
    await scheduler.runDue();
    expect(fired.map((f) => f.id)).to.deep.equal(['j1']);
    expect(store.familyJobs(family.id)).to.deep.equal([]);
    expect(await actor.read((s) => s.table('fired').size)).to.equal(1);
    await registry.shutdown();
  });

  it('follows the family when a later decision moves or removes a job', async () => {
    const { registry, scheduler } = start();
    const actor = await registry.get(family);
    const t0 = clock.now().getTime();
    await actor.execute(
      schedule(
        { put: { id: 'moved', kind: 'test', dueAt: t0 + 1_000 } as unknown as AgendaJob },
        { put: { id: 'gone', kind: 'test', dueAt: t0 + 1_000 } as unknown as AgendaJob },
      ),
      ref,
    );
    await actor.execute(
      schedule(
        { put: { id: 'moved', kind: 'test', dueAt: t0 + 5_000 } as unknown as AgendaJob },
        { remove: 'gone' },
      ),
      ref,
    );
    clock.set(new Date(t0 + 2_000));
    await scheduler.runDue();
    expect(fired).to.deep.equal([]);
    clock.set(new Date(t0 + 5_000));
    await scheduler.runDue();
    expect(fired.map((f) => f.id)).to.deep.equal(['moved']);
    await registry.shutdown();
  });

  it('keeps jobs across a restart, runs what came due meanwhile, and hands over as missed what is older than catchUpMinutes', async () => {
    const first = start();
    const actor = await first.registry.get(family);
    const t0 = clock.now().getTime();
    await actor.execute(
      schedule(
        { put: { id: 'recent', kind: 'test', dueAt: t0 + 60_000 } as unknown as AgendaJob },
        { put: { id: 'ancient', kind: 'test', dueAt: t0 - 7 * 3_600_000 } as unknown as AgendaJob },
        { put: { id: 'later', kind: 'test', dueAt: t0 + 86_400_000 } as unknown as AgendaJob },
      ),
      ref,
    );
    await first.registry.shutdown();
    await store.close();
    // The daemon is down for two hours.
    store = Store.open(dir);
    clock.set(new Date(t0 + 2 * 3_600_000));
    const second = start();
    await second.scheduler.runDue();
    expect(fired.map((f) => [f.id, f.missed]).sort()).to.deep.equal([
      ['ancient', true],
      ['recent', false],
    ]);
    expect(store.familyJobs(family.id).map((j) => j.id)).to.deep.equal(['later']);
    await second.registry.shutdown();
  });

  it('moves a job whose handler failed a minute on instead of losing or repeating it at once', async () => {
    let calls = 0;
    const flaky: JobHandler = async (job, ctx) => {
      calls++;
      if (calls === 1) throw new Error('transport down');
      await record(job, ctx);
    };
    const { registry, scheduler } = start({ test: flaky });
    const actor = await registry.get(family);
    const t0 = clock.now().getTime();
    await actor.execute(
      schedule({ put: { id: 'j', kind: 'test', dueAt: t0 } as unknown as AgendaJob }),
      ref,
    );
    await scheduler.runDue();
    expect(calls).to.equal(1);
    expect(store.getJob(family.id, 'j')?.dueAt).to.equal(t0 + 60_000);
    await scheduler.runDue();
    expect(calls).to.equal(1);
    clock.advance(60_000);
    await scheduler.runDue();
    expect(fired.map((f) => f.id)).to.deep.equal(['j']);
    expect(store.familyJobs(family.id)).to.deep.equal([]);
    await registry.shutdown();
  });

  it('lets a repeating job move itself on when it fires', async () => {
    const every: JobHandler = async (job, { actor }) => {
      await actor.execute(
        fireCommand(job, () => ({
          result: undefined,
          changes: [],
          events: [],
          agenda: [{ put: { ...job, familyId: undefined, dueAt: job.dueAt + 3_600_000 } as never }],
        })),
        ref,
      );
      fired.push({ id: job.id, missed: false, at: new Date(job.dueAt).toISOString() });
    };
    const { registry, scheduler } = start({ test: every });
    const actor = await registry.get(family);
    const t0 = clock.now().getTime();
    await actor.execute(
      schedule({ put: { id: 'hourly', kind: 'test', dueAt: t0 } as unknown as AgendaJob }),
      ref,
    );
    for (let h = 0; h < 3; h++) {
      await scheduler.runDue();
      clock.advance(3_600_000);
    }
    expect(fired.map((f) => f.at)).to.deep.equal([
      '2026-03-28T12:00:00.000Z',
      '2026-03-28T13:00:00.000Z',
      '2026-03-28T14:00:00.000Z',
    ]);
    expect(store.getJob(family.id, 'hourly')?.dueAt).to.equal(t0 + 3 * 3_600_000);
    await registry.shutdown();
  });

  it('drops a job of an unknown kind with a log line instead of retrying it forever', async () => {
    const { registry, scheduler } = start({});
    const actor = await registry.get(family);
    await actor.execute(
      schedule({
        put: { id: 'odd', kind: 'nobody', dueAt: clock.now().getTime() } as unknown as AgendaJob,
      }),
      ref,
    );
    expect(await scheduler.runDue()).to.equal(1);
    expect(store.familyJobs(family.id)).to.deep.equal([]);
    await registry.shutdown();
  });
});
