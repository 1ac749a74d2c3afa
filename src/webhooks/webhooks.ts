/**
 * Webhooks as the daemon wires them: the outbox (change log → deliveries in memory), the sender
 * (with its budget), the recorder (answers → one command per family per window, with the
 * checkpoint), the agenda handler for due deliveries (retries, and leases that ran out), and
 * test deliveries.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { FamilyRegistry } from '../family/registry.js';
import type { Directory, LogReads } from '../store/ports.js';
import type { Egress } from '../integrations/egress.js';
import type { IdGenerator } from '../domain/shared/ids.js';
import type { FamilyInfo } from '../domain/shared/state.js';
import { fireCommand, type JobHandler } from '../scheduler/scheduler.js';
import { destinationView, signingSecrets } from '../domain/webhooks/destinations.js';
import { type AttemptOutcome } from '../domain/webhooks/deliveries.js';
import { decideLease, leaseMs } from '../domain/webhooks/jobs.js';
import type { DELIVER_KIND, DeliveryJob, DestinationRecord } from '../domain/webhooks/types.js';
import { Sender, WEBHOOKS_CALLER } from './sender.js';
import { Outbox, QUEUE_CAP } from './outbox.js';
import { Recorder } from './recorder.js';
import { fromJob } from './delivery.js';
import { sendAttempt } from './attempt.js';
import { SendThread, inProcess, type Transport } from './sendThread.js';
import { testPayload } from './payload.js';

export interface WebhooksDeps {
  store: Pick<LogReads, 'getRecord' | 'readLog'> & Pick<Directory, 'listFamilies'>;
  registry: FamilyRegistry;
  egress: Egress;
  config: Config;
  now: () => Date;
  logger: Logger;
  newId: IdGenerator;
  /**
   * HTTP requests in flight on average since the last call: while many are, requests are
   * queueing, and sends keep a small share of the thread (budget.ts). Without it deliveries are
   * never held back.
   */
  requestsInFlight?: () => number;
  /** Told after each recorded attempt (metrics): delivered, failed (a retry follows) or gave up. */
  onOutcome?: (outcome: 'delivered' | 'failed' | 'gave_up', responseStatus: number | null) => void;
}

export interface Webhooks {
  /** `onCommitted` observer: a family's log grew up to a durable sequence number. */
  nudge(family: FamilyInfo, lastSeq: number): void;
  /** The agenda handler of `webhook.deliver` jobs. */
  handleJob: JobHandler<typeof DELIVER_KIND>;
  /** Catches up every family's outbox and takes over deliveries an earlier run left leased. */
  start(): Promise<void>;
  /** One family's part of `start` (a cluster node that took the family over). */
  resume(family: FamilyInfo): Promise<void>;
  stop(): Promise<void>;
  /** Sends one `webhook.test` message to a destination now; the caller records the outcome. */
  sendTest(family: FamilyInfo, destination: DestinationRecord): Promise<AttemptOutcome>;
  /** Resolves when the outbox and the sender have nothing left to do right now. */
  idle(): Promise<void>;
  /** The delivery thread (null when sends run on the main thread): tests end it. */
  readonly sendThread: SendThread | null;
}

export function createWebhooks(deps: WebhooksDeps): Webhooks {
  const boot = randomBytes(6).toString('hex');
  const lease = leaseMs(deps.config.webhooks.timeoutMs);
  const limits = { policy: deps.config.egress.webhooks, timeoutMs: deps.config.webhooks.timeoutMs };
  // Sends leave from their own thread when the egress client can be made again there (the
  // daemon's always can); a client a test built by hand sends from the main thread.
  const thread = deps.egress.options
    ? new SendThread({ egress: deps.egress, limits, logger: deps.logger })
    : null;
  const transport: Transport = thread ?? inProcess(deps.egress, limits);
  // The three refer to each other: the outbox feeds the sender, the sender the recorder, and the
  // recorder tells the outbox what settled.
  let recorder: Recorder;
  const sender: Sender = new Sender({
    ...deps,
    transport,
    boot,
    recorder: () => recorder,
    room: () => outbox.room(),
    roomBelow: QUEUE_CAP / 2,
  });
  const outbox = new Outbox({
    ...deps,
    sink: sender,
    recorder: () => recorder,
    boot,
    leaseMs: lease,
  });
  recorder = new Recorder({
    ...deps,
    boot,
    leaseMs: lease,
    tracker: (familyId) => outbox.tracker(familyId),
    takeStale: (familyId) => sender.takeStale(familyId),
    resubmit: (_family, deliveries) => sender.submit(deliveries),
    settled: (family) => outbox.nudge(family),
  });

  const handleJob: JobHandler<typeof DELIVER_KIND> = async (stored, { actor, now }) => {
    // Deliveries are owed data, not appointments: one found late (the daemon was down longer
    // than the catch-up window) is still sent.
    const { familyId: _f, ...job } = stored;
    const held = sender.owns(stored.familyId, job.id);
    const until = now.getTime() + lease;
    const res = await actor.execute(
      fireCommand(job, (s) => decideLease(s, job, { boot, until }, held)),
      WEBHOOKS_CALLER,
    );
    if (res === 'leased') {
      const leased: DeliveryJob = { ...job, dueAt: until, data: { ...job.data, lease: { boot } } };
      sender.submit([fromJob(actor.family, leased)]);
    }
  };

  return {
    nudge: (family) => outbox.nudge(family),
    handleJob,
    start: () => outbox.start(),
    resume: (family) => outbox.resume(family),
    async stop() {
      await outbox.stop();
      await sender.stop();
      await transport.close();
      await recorder.stop();
    },
    async sendTest(family, d) {
      const at = deps.now();
      const eventId = deps.newId('event');
      const body = JSON.stringify(
        testPayload(eventId, at.toISOString(), family.slug, destinationView(d)),
      );
      const sent = await sendAttempt(deps.egress, limits, {
        url: d.url,
        secrets: signingSecrets(d, at),
        id: eventId,
        body,
        at,
      });
      return {
        destinationId: d.id,
        deliveryId: deps.newId('dlv'),
        eventId,
        type: 'webhook.test',
        attempt: 1,
        at: at.toISOString(),
        ok: sent.ok,
        responseStatus: sent.responseStatus,
        durationMs: sent.durationMs,
        error: sent.error,
        retryAfterMs: null,
        test: true,
      };
    },
    sendThread: thread,
    async idle() {
      for (;;) {
        await outbox.idle();
        await sender.idle();
        await recorder.idle();
        // Recording an outcome may have logged (a destination disabled): let that settle too.
        await new Promise((r) => setImmediate(r));
        if (sender.pending === 0 && !outbox.busy && recorder.pending === 0) return;
      }
    },
  };
}
