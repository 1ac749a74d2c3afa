/**
 * The daemon's parts below its doors, made once at start on the topology's store: the family
 * registry (and who is nudged when a family's log grows), the outbound client, notifications,
 * metrics, the webhook outbox, the live streams' log, the OAuth authority, the credentials and
 * the one limiter, and the scheduler with its table of jobs. Each part is handed the ports it
 * uses, never the whole store. The doors are composed from these in doors.ts.
 */
import { randomFillSync } from 'node:crypto';
import type { Logger } from 'pino';
import { Addresses } from '../addresses.js';
import type { Config } from '../config.js';
import { areaReactions } from '../domain/areas.js';
import { createIdGenerator, pooledRandom, type IdGenerator } from '../domain/shared/ids.js';
import type { FamilyInfo } from '../domain/shared/state.js';
import { webhookCheckpoint } from '../domain/webhooks/destinations.js';
import { Credentials } from '../door/credentials.js';
import { DoorLimits } from '../door/limits.js';
import { LocalFollowedLog } from '../family/followedLog.js';
import { FamilyRegistry } from '../family/registry.js';
import { createEgress, type Egress } from '../integrations/egress.js';
import { Metrics } from '../metrics.js';
import { Notifier } from '../notifications/sender.js';
import { OAuthAuthority } from '../oauth/authority.js';
import { looksLikeAccessToken } from '../oauth/credentials.js';
import { Scheduler } from '../scheduler/scheduler.js';
import { StreamTickets } from '../stream/tickets.js';
import type { Topology } from '../topology/topology.js';
import { VERSION } from '../version.js';
import { InFlightGauge } from '../webhooks/budget.js';
import { createWebhooks } from '../webhooks/webhooks.js';
import { jobHandlers } from './jobs.js';

export interface PartsOptions {
  logger: Logger;
  now: () => Date;
  egress?: Egress | undefined;
}

/** Observers of a family's durable log growth (webhooks, the live streams, tests). */
export type CommitObservers = Set<(family: FamilyInfo, lastSeq: number) => void>;

export type DaemonParts = ReturnType<typeof buildParts>;

/** The registry, nudging every observer when a family's log grew (an observer's fault is logged). */
function familyRegistry(
  config: Config,
  topology: Topology,
  addresses: Addresses,
  o: {
    now: () => Date;
    newId: IdGenerator;
    logger: Logger;
    agendaChanged: (dueAt: number) => void;
  },
) {
  const onCommitted: CommitObservers = new Set();
  const registry = new FamilyRegistry(
    {
      onAgendaChanged: o.agendaChanged,
      store: topology.store,
      now: o.now,
      newId: o.newId,
      // Read at each command: what the change log records is built on it, never on a Host.
      get publicUrl() {
        return addresses.stored;
      },
      react: areaReactions(),
      transports: {
        email: config.email.smtpUrl !== null,
        push: config.push.ntfyUrl !== null,
        sms: config.sms.gatewayUrl !== null,
      },
      onCommitted: (family, lastSeq) => {
        for (const fn of onCommitted) {
          try {
            fn(family, lastSeq);
          } catch (err) {
            o.logger.error({ err }, 'change-log observer failed');
          }
        }
      },
    },
    {
      idleMs: config.families.actorIdleMinutes * 60_000,
      maxActive: config.families.maxActiveActors,
      ownership: topology.ownership,
    },
  );
  return { registry, onCommitted };
}

export function buildParts(config: Config, topology: Topology, opts: PartsOptions) {
  const { logger, now } = opts;
  const store = topology.store;
  const newId = createIdGenerator(
    () => now().getTime(),
    pooledRandom((b) => randomFillSync(b)),
  );
  // The scheduler is made last (it needs the registry); a job added before it exists is found
  // when it starts.
  let scheduler: Scheduler | undefined;
  const agendaChanged = (dueAt: number) => scheduler?.jobAdded(dueAt);
  // Links follow the address each request came to unless publicUrl fixes one; stored links
  // use publicUrl or the listening address (known once it listens).
  const addresses = new Addresses(config.server);
  const { registry, onCommitted } = familyRegistry(config, topology, addresses, {
    now,
    newId,
    logger,
    agendaChanged,
  });
  const egress = opts.egress ?? createEgress();
  const notifier = new Notifier({ config, egress, logger });
  const metrics = new Metrics(config.metrics.enabled, { store, registry, now, version: VERSION });
  metrics.extend((r) => topology.metrics(r));
  // Requests being answered: while they queue, deliveries keep only a small share of the
  // thread (docs/webhooks.md, "Sharing the thread").
  const requests = new InFlightGauge();
  const webhooks = createWebhooks({
    store,
    registry,
    egress,
    config,
    now,
    logger,
    newId,
    requestsInFlight: () => requests.meanSinceLastAsked(),
    onOutcome: (outcome, status) => metrics.webhookOutcome(outcome, status),
  });
  metrics.followChangeLog('webhooks', (actor) => webhookCheckpoint(actor.state));
  onCommitted.add((family, lastSeq) => webhooks.nudge(family, lastSeq));
  // The live streams follow the log through one small interface (src/family/followedLog.ts).
  const followed = new LocalFollowedLog({
    readLog: (familyId, after, limit) => store.readLog(familyId, after, limit),
    durableHead: (familyId) => registry.peek(familyId)?.lastDurableSeq ?? store.lastSeq(familyId),
  });
  onCommitted.add((family, lastSeq) => followed.committed(family.id, lastSeq));
  // Assistants authorize the OAuth way (docs/oauth.md); the daemon is its own authorization server.
  const authority = new OAuthAuthority({ store, registry, now, newId });
  const tickets = new StreamTickets(() => now().getTime());
  const credentials = new Credentials(
    store,
    {
      accessTokens: {
        isAccessToken: looksLikeAccessToken,
        verifyAccess: (t, resource) => authority.verifyAccess(t, resource),
      },
      tickets,
    },
    now,
  );
  const limits = new DoorLimits(config.rateLimit, () => now().getTime());
  scheduler = new Scheduler({
    store,
    registry,
    now,
    logger,
    catchUpMinutes: config.scheduler.catchUpMinutes,
    handlers: jobHandlers({ store, registry, config, now, logger, egress, notifier, webhooks }),
    agenda: topology.agenda,
  });
  return {
    config,
    topology,
    store,
    logger,
    now,
    newId,
    registry,
    onCommitted,
    egress,
    notifier,
    metrics,
    requests,
    webhooks,
    followed,
    addresses,
    authority,
    tickets,
    credentials,
    limits,
    scheduler,
  };
}
