/**
 * The webhook deciders on a bare family state: what the outbox enqueues (and never twice), who
 * gets which record, leases and their takeover, and what an attempt's outcome does to the job
 * and the destination.
 */
import { expect } from 'chai';
import { fixture } from './fixture.js';
import {
  decideCreateDestination,
  decideDeleteDestination,
  decideUpdateDestination,
} from '../../src/domain/webhooks/destinations.js';
import { decideEnqueue } from './enqueue.js';
import { decideOutcome, type AttemptOutcome } from '../../src/domain/webhooks/deliveries.js';
import {
  decideLease,
  decideReclaim,
  liveJob,
  outboxCheckpoint,
} from '../../src/domain/webhooks/jobs.js';
import { historyOf, usageOf } from '../../src/domain/webhooks/usage.js';
import { AGENDA_TABLE } from '../../src/domain/shared/agenda.js';
import { fireCommand } from '../../src/scheduler/scheduler.js';
import type { DeliveryJob } from '../../src/domain/webhooks/types.js';
import type { EventType } from '../../src/domain/shared/events.js';

const SCHEDULE = [5, 300, 1800];
const lease = (f: ReturnType<typeof fixture>, boot = 'boot-a') => ({
  boot,
  until: f.now().getTime() + 75_000,
});

function setup(types: EventType[] = ['person.created']) {
  const f = fixture();
  const d = f.run((s, c) =>
    decideCreateDestination(
      s,
      { name: 'HA', url: 'http://ha.lan/hook', eventTypes: types },
      'whsec_a',
      c,
    ),
  ).result;
  return { f, d };
}

function outcome(job: DeliveryJob, over: Partial<AttemptOutcome>, at: Date): AttemptOutcome {
  return {
    destinationId: job.data.destinationId,
    deliveryId: job.data.deliveryId,
    eventId: job.data.eventId,
    type: job.data.type,
    attempt: job.data.attempt + 1,
    at: at.toISOString(),
    ok: false,
    responseStatus: 500,
    durationMs: 3,
    error: 'HTTP 500',
    retryAfterMs: null,
    jobId: job.id,
    boot: job.data.lease?.boot ?? 'boot-a',
    ...over,
  };
}

describe('webhook outbox decisions', () => {
  it('puts one leased job per record and subscribed destination, moves the checkpoint with them, and never enqueues a record twice', () => {
    const { f, d } = setup(['person.created', 'person.deleted']);
    const other = f.run((s, c) =>
      decideCreateDestination(
        s,
        { name: 'B', url: 'http://b.lan/', eventTypes: ['person.deleted'] },
        'whsec_b',
        c,
      ),
    ).result;
    const recs = [
      f.logged('person.created'),
      f.logged('tracker.entry.created'),
      f.logged('person.deleted'),
    ];
    const first = f.run((s, c) => decideEnqueue(s, recs, lease(f), c));
    expect(first.result.map((j) => [j.data.destinationId, j.data.type])).to.deep.equal([
      [d.id, 'person.created'],
      [d.id, 'person.deleted'],
      [other.id, 'person.deleted'],
    ]);
    expect(
      first.result.every((j) => j.data.lease?.boot === 'boot-a' && j.data.attempt === 0),
    ).to.equal(true);
    expect(outboxCheckpoint(f.state)).to.equal(recs[2].seq);
    expect(first.events).to.deep.equal([]);
    // A second pass over the same records (two nudges racing) decides nothing.
    const again = f.run((s, c) => decideEnqueue(s, recs, lease(f), c));
    expect(again.result).to.deep.equal([]);
    expect(again.changes).to.deep.equal([]);
    expect(again.agenda ?? []).to.deep.equal([]);
  });

  it('gives a destination only records logged after it was created, and jumps the checkpoint when it is the first enabled one', () => {
    const f = fixture();
    const before = [f.logged('person.created'), f.logged('person.created')];
    const d = f.run((s, c) =>
      decideCreateDestination(
        s,
        { name: 'HA', url: 'http://ha.lan/', eventTypes: ['person.created'] },
        'whsec_a',
        c,
      ),
    ).result;
    // Its own creation record is number 3; the outbox starts after it.
    expect(d.sinceSeq).to.equal(3);
    expect(outboxCheckpoint(f.state)).to.equal(3);
    const second = f.run((s, c) =>
      decideCreateDestination(
        s,
        { name: 'B', url: 'http://b.lan/', eventTypes: ['person.created'] },
        'whsec_b',
        c,
      ),
    ).result;
    // With one enabled already, the checkpoint stays where the outbox is.
    expect(outboxCheckpoint(f.state)).to.equal(3);
    const after = f.logged('person.created');
    const jobs = f.run((s, c) =>
      decideEnqueue(s, [...before, ...f.log.slice(2, 4), after], lease(f), c),
    ).result;
    expect(jobs.map((j) => [j.data.destinationId, j.data.seq])).to.deep.equal([
      [d.id, after.seq],
      [second.id, after.seq],
    ]);
  });

  it('enqueues nothing for a disabled destination and drops its pending jobs when it is disabled or deleted', () => {
    const { f, d } = setup();
    const jobs = f.run((s, c) =>
      decideEnqueue(s, [f.logged('person.created')], lease(f), c),
    ).result;
    expect(jobs).to.have.length(1);
    const off = f.run((s, c) => decideUpdateDestination(s, d.id, { enabled: false }, null, c));
    expect(off.agenda).to.deep.equal([{ remove: jobs[0].id }]);
    expect(
      f.run((s, c) => decideEnqueue(s, [f.logged('person.created')], lease(f), c)).result,
    ).to.deep.equal([]);
    f.run((s, c) => decideUpdateDestination(s, d.id, { enabled: true }, null, c));
    const back = f.run((s, c) =>
      decideEnqueue(s, [f.logged('person.created')], lease(f), c),
    ).result;
    expect(back).to.have.length(1);
    const del = f.run((s, c) => decideDeleteDestination(s, d.id, c));
    expect(del.agenda).to.deep.equal([{ remove: back[0].id }]);
    expect(outboxCheckpoint(f.state)).to.equal(0);
  });
});

describe('webhook lease decisions', () => {
  it('leases a due job, only moves the lease on when this process holds it, and drops it when its destination stopped wanting it', () => {
    const { f, d } = setup();
    const [job] = f.run((s, c) =>
      decideEnqueue(s, [f.logged('person.created')], lease(f), c),
    ).result;
    const l = lease(f, 'boot-b');
    expect(decideLease(f.state, job, l, false).result).to.equal('leased');
    expect(decideLease(f.state, job, l, true).result).to.equal('extended');
    expect((decideLease(f.state, job, l, false).agenda![0] as any).put.data.lease).to.deep.equal({
      boot: 'boot-b',
    });
    f.run((s, c) => decideUpdateDestination(s, d.id, { eventTypes: ['person.deleted'] }, null, c));
    expect(decideLease(f.state, job, l, false)).to.deep.include({ result: 'dropped', changes: [] });
  });

  it('fires a due job at most once: a firing of a job that moved since it was found decides nothing', () => {
    const { f } = setup();
    const [job] = f.run((s, c) =>
      decideEnqueue(s, [f.logged('person.created')], lease(f), c),
    ).result;
    f.tick(80_000);
    const fire = fireCommand(job, (s) => decideLease(s, job, lease(f, 'boot-b'), false));
    expect(f.run(fire).result).to.equal('leased');
    // The same firing again (a second pass that found the job before it moved): nothing.
    const again = f.run(fire);
    expect(again.result).to.equal(undefined);
    expect(again.agenda ?? []).to.deep.equal([]);
  });

  it('takes over only the jobs leased by an earlier run', () => {
    const { f } = setup();
    f.run((s, c) => decideEnqueue(s, [f.logged('person.created')], lease(f, 'old'), c));
    f.run((s, c) => decideEnqueue(s, [f.logged('person.created')], lease(f, 'now'), c));
    const taken = f.run((s) => decideReclaim(s, lease(f, 'now'))).result;
    expect(taken).to.have.length(1);
    expect(taken[0].data.lease).to.deep.equal({ boot: 'now' });
    expect(f.run((s) => decideReclaim(s, lease(f, 'now'))).result).to.deep.equal([]);
  });
});

describe('webhook attempt outcomes', () => {
  function owed(types: EventType[] = ['person.created']) {
    const { f, d } = setup(types);
    const [job] = f.run((s, c) =>
      decideEnqueue(s, [f.logged('person.created')], lease(f), c),
    ).result;
    return { f, d, job: job };
  }

  it('moves a failed attempt to the next retry of the schedule, at most 10 % later, and clears the lease', () => {
    for (const jitter of [0, 0.5, 0.999]) {
      const { f, job } = owed();
      const r = f.run((s, c) => decideOutcome(s, outcome(job, {}, f.now()), SCHEDULE, jitter, c));
      expect(r.result.status).to.equal('retrying');
      const live = liveJob(f.state, job.id)!;
      const delay = live.dueAt - f.now().getTime();
      expect(delay).to.be.within(5000, 5500);
      expect(delay).to.equal(Math.round(5000 * (1 + 0.1 * jitter)));
      expect(live.data).to.include({ attempt: 1, lease: null });
      expect(r.result.nextAttemptAt).to.equal(new Date(live.dueAt).toISOString());
    }
  });

  it('waits at least a Retry-After, but never more than a day', () => {
    const { f, job } = owed();
    f.run((s, c) =>
      decideOutcome(
        s,
        outcome(job, { responseStatus: 429, retryAfterMs: 90_000 }, f.now()),
        SCHEDULE,
        0,
        c,
      ),
    );
    expect(liveJob(f.state, job.id)!.dueAt - f.now().getTime()).to.equal(90_000);
    const second = owed();
    second.f.run((s, c) =>
      decideOutcome(
        s,
        outcome(
          second.job,
          { responseStatus: 503, retryAfterMs: 365 * 86_400_000 },
          second.f.now(),
        ),
        SCHEDULE,
        0,
        c,
      ),
    );
    expect(liveJob(second.f.state, second.job.id)!.dueAt - second.f.now().getTime()).to.equal(
      86_400_000,
    );
  });

  it('removes the job after a success or after the last retry', () => {
    const { f, job } = owed();
    f.run((s, c) =>
      decideOutcome(
        s,
        outcome(job, { ok: true, responseStatus: 200, error: null }, f.now()),
        SCHEDULE,
        0,
        c,
      ),
    );
    expect(liveJob(f.state, job.id)).to.equal(undefined);
    const last = owed();
    let j = last.job;
    for (let i = 0; i < SCHEDULE.length; i++) {
      last.f.run((s, c) => decideOutcome(s, outcome(j, {}, last.f.now()), SCHEDULE, 0, c));
      j = {
        ...liveJob(last.f.state, j.id)!,
        data: { ...liveJob(last.f.state, j.id)!.data, lease: { boot: 'boot-a' } },
      };
      last.f.state.apply([{ table: AGENDA_TABLE, id: j.id, value: j }]);
    }
    const r = last.f.run((s, c) => decideOutcome(s, outcome(j, {}, last.f.now()), SCHEDULE, 0, c));
    expect(r.result).to.deep.equal({ status: 'failed', nextAttemptAt: null, disabled: null });
    expect(liveJob(last.f.state, j.id)).to.equal(undefined);
    expect(historyOf(last.f.state, j.data.destinationId).map((h) => h.attempt)).to.deep.equal([
      4, 3, 2, 1,
    ]);
  });

  it('leaves a job alone when the attempt is not the one it holds (another lease, or moved meanwhile)', () => {
    const { f, job } = owed();
    const r = f.run((s, c) =>
      decideOutcome(s, outcome(job, { boot: 'someone-else' }, f.now()), SCHEDULE, 0, c),
    );
    expect(r.agenda).to.deep.equal([]);
    expect(liveJob(f.state, job.id)).to.deep.equal(job);
    expect(historyOf(f.state, job.data.destinationId)).to.have.length(1);
  });

  it('disables on 410, logging the destination without its secret, and drops every pending job', () => {
    const { f, d, job } = owed();
    const [other] = f.run((s, c) =>
      decideEnqueue(s, [f.logged('person.created')], lease(f), c),
    ).result;
    const r = f.run((s, c) =>
      decideOutcome(
        s,
        outcome(job, { responseStatus: 410, error: 'HTTP 410' }, f.now()),
        SCHEDULE,
        0,
        c,
      ),
    );
    expect(r.result).to.include({ status: 'failed', disabled: 'receiver_gone' });
    // The destination's change, then the household's in-app notice of it.
    expect(r.events.map((e) => e.type)).to.deep.equal([
      'webhook_destination.updated',
      'notification.sent',
    ]);
    expect(r.events[0].object).to.include({
      id: d.id,
      enabled: false,
      disabledReason: 'receiver_gone',
    });
    expect(JSON.stringify(r.events)).to.not.include('whsec_');
    expect(liveJob(f.state, job.id)).to.equal(undefined);
    expect(liveJob(f.state, other.id)).to.equal(undefined);
  });

  it('disables after 5 days of failures only, and a success starts the count again', () => {
    const { f, job } = owed();
    f.run((s, c) => decideOutcome(s, outcome(job, {}, f.now()), SCHEDULE, 0, c));
    f.tick(5 * 86_400_000 - 1);
    const [j2] = f.run((s, c) =>
      decideEnqueue(s, [f.logged('person.created')], lease(f), c),
    ).result;
    expect(
      f.run((s, c) => decideOutcome(s, outcome(j2, {}, f.now()), SCHEDULE, 0, c)).result.disabled,
    ).to.equal(null);
    f.tick(1);
    const [j3] = f.run((s, c) =>
      decideEnqueue(s, [f.logged('person.created')], lease(f), c),
    ).result;
    expect(
      f.run((s, c) => decideOutcome(s, outcome(j3, {}, f.now()), SCHEDULE, 0, c)).result.disabled,
    ).to.equal('failing');
  });

  it('records a test delivery without retrying, disabling or touching the failure streak', () => {
    const { f, d } = owed();
    const test: AttemptOutcome = {
      destinationId: d.id,
      deliveryId: 'dlv_t',
      eventId: 'event_t',
      type: 'webhook.test',
      attempt: 1,
      at: f.now().toISOString(),
      ok: false,
      responseStatus: 410,
      durationMs: 1,
      error: 'HTTP 410',
      retryAfterMs: null,
      test: true,
    };
    const r = f.run((s, c) => decideOutcome(s, test, SCHEDULE, 0, c));
    expect(r.result).to.deep.equal({ status: 'failed', nextAttemptAt: null, disabled: null });
    expect(r.events).to.deep.equal([]);
    expect(usageOf(f.state, d.id, f.now()).last24h).to.deep.equal({
      attempted: 1,
      succeeded: 0,
      failed: 1,
    });
  });
});
