/**
 * Recording many delivery answers in one decision (the recorder's window) and the checkpoint
 * that follows from them: history order, exact usage, stats written once, retry jobs for failed
 * first attempts, moving waiting deliveries to the agenda, and a checkpoint that moves only past
 * records whose deliveries all settled.
 */
import { expect } from 'chai';
import { fixture } from './fixture.js';
import { decideCreateDestination } from '../../src/domain/webhooks/destinations.js';
import {
  decideOutcome,
  decideOutcomes,
  type AttemptOutcome,
} from '../../src/domain/webhooks/deliveries.js';
import { historyOf, usageOf } from '../../src/domain/webhooks/usage.js';
import { DELIVER_KIND, STATS, jobIdOf, type DeliveryJob } from '../../src/domain/webhooks/types.js';
import { AGENDA_TABLE } from '../../src/domain/shared/agenda.js';
import { CheckpointTracker } from '../../src/webhooks/checkpoint.js';
import { liveJob, outboxCheckpoint, type LogPointer } from '../../src/domain/webhooks/jobs.js';

const SCHEDULE = [5, 300, 1800];

function setup() {
  const f = fixture();
  const a = f.run((s, c) =>
    decideCreateDestination(
      s,
      { name: 'A', url: 'http://a.lan/', eventTypes: ['person.created'] },
      'whsec_a',
      c,
    ),
  ).result;
  const b = f.run((s, c) =>
    decideCreateDestination(
      s,
      { name: 'B', url: 'http://b.lan/', eventTypes: ['person.created'] },
      'whsec_b',
      c,
    ),
  ).result;
  return { f, a, b };
}

/** A first attempt made straight from the log (no job behind it). */
function first(
  destinationId: string,
  r: LogPointer,
  ok: boolean,
  at: Date,
  over: Partial<AttemptOutcome> = {},
): AttemptOutcome & { jitter: number } {
  return {
    destinationId,
    deliveryId: `dlv_${destinationId}_${r.seq}`,
    eventId: r.id,
    type: r.type,
    attempt: 1,
    at: at.toISOString(),
    ok,
    responseStatus: ok ? 204 : 500,
    durationMs: 2,
    error: ok ? null : 'HTTP 500',
    retryAfterMs: null,
    logSeq: r.seq,
    jitter: 0,
    ...over,
  };
}

describe('webhook outcomes recorded together', () => {
  it("keeps history in answer order, counts usage exactly and writes each destination's stats once", () => {
    const { f, a, b } = setup();
    const recs = [
      f.logged('person.created'),
      f.logged('person.created'),
      f.logged('person.created'),
    ];
    const d = f.run((s, c) =>
      decideOutcomes(
        s,
        {
          outcomes: [
            first(a.id, recs[0], true, f.now()),
            first(b.id, recs[0], true, f.now()),
            first(a.id, recs[1], false, f.now()),
            first(a.id, recs[2], true, f.now()),
          ],
        },
        SCHEDULE,
        c,
      ),
    );
    expect(d.result.map((r) => r.status)).to.deep.equal([
      'succeeded',
      'succeeded',
      'retrying',
      'succeeded',
    ]);
    expect(d.changes.filter((c) => c.table === STATS).map((c) => c.id)).to.deep.equal([a.id, b.id]);
    expect(historyOf(f.state, a.id).map((h) => [h.eventId, h.status])).to.deep.equal([
      [recs[2].id, 'succeeded'],
      [recs[1].id, 'retrying'],
      [recs[0].id, 'succeeded'],
    ]);
    expect(usageOf(f.state, a.id, f.now()).last24h).to.deep.equal({
      attempted: 3,
      succeeded: 2,
      failed: 1,
    });
    expect(usageOf(f.state, b.id, f.now()).last24h).to.deep.equal({
      attempted: 1,
      succeeded: 1,
      failed: 0,
    });
  });

  it('gives the same history and usage as recording the answers one by one, across the 100-slot ring', () => {
    const one = setup();
    const many = setup();
    const recs = Array.from({ length: 130 }, () => one.f.logged('person.created'));
    Array.from({ length: 130 }, () => many.f.logged('person.created'));
    const outcomes = recs.map((r, i) =>
      first(one.a.id, r, i % 7 !== 0, one.f.now(), { deliveryId: `dlv_${i}` }),
    );
    for (const o of outcomes) one.f.run((s, c) => decideOutcome(s, o, SCHEDULE, o.jitter, c));
    many.f.run((s, c) =>
      decideOutcomes(
        s,
        { outcomes: outcomes.map((o) => ({ ...o, destinationId: many.a.id })) },
        SCHEDULE,
        c,
      ),
    );
    const strip = (h: ReturnType<typeof historyOf>) =>
      h.map((x) => [x.deliveryId, x.status, x.attempt]);
    expect(strip(historyOf(many.f.state, many.a.id))).to.deep.equal(
      strip(historyOf(one.f.state, one.a.id)),
    );
    expect(historyOf(many.f.state, many.a.id)).to.have.length(100);
    expect(historyOf(many.f.state, many.a.id)[0].deliveryId).to.equal('dlv_129');
    expect(usageOf(many.f.state, many.a.id, many.f.now())).to.deep.equal(
      usageOf(one.f.state, one.a.id, one.f.now()),
    );
    expect(usageOf(many.f.state, many.a.id, many.f.now()).last24h).to.deep.equal({
      attempted: 130,
      succeeded: 111,
      failed: 19,
    });
  });

  it("puts the retry job of a failed first attempt, with its delivery id, and lets the retry's answer move it on", () => {
    const { f, a } = setup();
    const r = f.logged('person.created');
    f.run((s, c) => decideOutcomes(s, { outcomes: [first(a.id, r, false, f.now())] }, SCHEDULE, c));
    const job = liveJob(f.state, jobIdOf(a.id, r.id))!;
    expect(job.dueAt - f.now().getTime()).to.equal(5000);
    expect(job.data).to.deep.equal({
      destinationId: a.id,
      deliveryId: `dlv_${a.id}_${r.seq}`,
      eventId: r.id,
      seq: r.seq,
      type: 'person.created',
      attempt: 1,
      lease: null,
    });
    // The scheduler leases it; the second attempt succeeds and removes it.
    const leased: DeliveryJob = { ...job, data: { ...job.data, lease: { boot: 'boot-a' } } };
    f.state.apply([{ table: AGENDA_TABLE, id: job.id, value: leased }]);
    f.run((s, c) =>
      decideOutcomes(
        s,
        {
          outcomes: [
            {
              ...first(a.id, r, true, f.now()),
              attempt: 2,
              jobId: job.id,
              boot: 'boot-a',
              logSeq: undefined,
            },
          ],
        },
        SCHEDULE,
        c,
      ),
    );
    expect(liveJob(f.state, job.id)).to.equal(undefined);
    expect(historyOf(f.state, a.id).map((h) => [h.attempt, h.status, h.deliveryId])).to.deep.equal([
      [2, 'succeeded', job.data.deliveryId],
      [1, 'retrying', job.data.deliveryId],
    ]);
  });

  it('disables on a 410 once, drops the retries the same window put for it, and records the later answers without logging again', () => {
    const { f, a, b } = setup();
    const recs = [
      f.logged('person.created'),
      f.logged('person.created'),
      f.logged('person.created'),
    ];
    const d = f.run((s, c) =>
      decideOutcomes(
        s,
        {
          outcomes: [
            first(a.id, recs[0], false, f.now()),
            first(b.id, recs[0], false, f.now()),
            first(a.id, recs[1], false, f.now(), { responseStatus: 410, error: 'HTTP 410' }),
            first(a.id, recs[2], false, f.now(), { responseStatus: 410, error: 'HTTP 410' }),
          ],
        },
        SCHEDULE,
        c,
      ),
    );
    expect(d.result.map((r) => [r.status, r.disabled])).to.deep.equal([
      ['retrying', null],
      ['retrying', null],
      ['failed', 'receiver_gone'],
      ['failed', null],
    ]);
    expect(d.events.filter((e) => e.type === 'webhook_destination.updated')).to.have.length(1);
    expect(liveJob(f.state, jobIdOf(a.id, recs[0].id))).to.equal(undefined);
    expect(liveJob(f.state, jobIdOf(b.id, recs[0].id))).to.not.equal(undefined);
    expect(historyOf(f.state, a.id)).to.have.length(3);
  });

  it('puts waiting deliveries on the agenda as leased jobs, unless their job exists or their destination stopped wanting them', () => {
    const { f, a, b } = setup();
    const r = f.logged('person.created');
    const spill = (destinationId: string): DeliveryJob => ({
      id: jobIdOf(destinationId, r.id),
      kind: DELIVER_KIND,
      dueAt: f.now().getTime() + 60_000,
      data: {
        destinationId,
        deliveryId: 'dlv_x',
        eventId: r.id,
        seq: r.seq,
        type: 'person.created',
        attempt: 0,
        lease: { boot: 'boot-a' },
      },
    });
    f.run((s, c) => decideOutcomes(s, { outcomes: [first(b.id, r, false, f.now())] }, SCHEDULE, c));
    const retry = liveJob(f.state, jobIdOf(b.id, r.id));
    const d = f.run((s, c) =>
      decideOutcomes(
        s,
        { outcomes: [], spills: [spill(a.id), spill(b.id), spill('whd_gone')] },
        SCHEDULE,
        c,
      ),
    );
    expect(d.agenda).to.deep.equal([{ put: spill(a.id) }]);
    expect(liveJob(f.state, jobIdOf(b.id, r.id))).to.deep.equal(retry);
  });

  it('moves the checkpoint forward only, and only while the family has a destination', () => {
    const { f } = setup();
    const at = outboxCheckpoint(f.state);
    f.run((s, c) => decideOutcomes(s, { outcomes: [], checkpoint: at + 5 }, SCHEDULE, c));
    expect(outboxCheckpoint(f.state)).to.equal(at + 5);
    const back = f.run((s, c) =>
      decideOutcomes(s, { outcomes: [], checkpoint: at + 2 }, SCHEDULE, c),
    );
    expect(back.changes).to.deep.equal([]);
    expect(outboxCheckpoint(f.state)).to.equal(at + 5);
    const none = fixture();
    expect(
      none.run((s, c) => decideOutcomes(s, { outcomes: [], checkpoint: 9 }, SCHEDULE, c)).changes,
    ).to.deep.equal([]);
  });
});

describe('the outbox checkpoint tracker', () => {
  it('stops before the first record with an open delivery; records owing nothing pass at once', () => {
    const t = new CheckpointTracker(10, 10);
    t.read(11, 0);
    expect(t.checkpointAfter([])).to.equal(11);
    t.read(12, 2);
    t.read(13, 1);
    t.read(14, 0);
    expect(t.size).to.equal(3);
    expect(t.checkpointAfter([])).to.equal(11);
    // Settling one of record 12's two deliveries is not enough; both are.
    expect(t.checkpointAfter([12])).to.equal(11);
    expect(t.checkpointAfter([12, 12])).to.equal(12);
    expect(t.checkpointAfter([12, 12, 13])).to.equal(14);
    // A later record settling first does not move it past an earlier open one.
    t.settle(13);
    expect(t.checkpointAfter([])).to.equal(11);
    t.settle(12);
    t.settle(12);
    expect(t.checkpointAfter([])).to.equal(14);
    expect(t.size).to.equal(0);
  });

  it('ignores records it has already read and settlements of records it does not hold', () => {
    const t = new CheckpointTracker(5, 5);
    t.read(6, 1);
    t.read(6, 3);
    t.read(4, 2);
    expect(t.size).to.equal(1);
    t.settle(99);
    expect(t.size).to.equal(1);
    expect(t.checkpointAfter([6])).to.equal(6);
  });
});
