/**
 * The daemon's Prometheus metrics (`GET /metrics`, off unless `metrics.enabled`).
 *
 * Each daemon has a registry of its own — never prom-client's global one — so several daemons
 * in one process (the tests) keep their figures apart. Figures that are states (active
 * families, the agenda, change-log lag) are read when scraped; events (requests, commits,
 * webhook attempts) are counted as they happen. With metrics off every method is a no-op, so
 * callers (the webhook sender) need not ask.
 *
 * Other parts report through this object (`daemon.metrics`):
 *   - `webhookOutcome(outcome, responseStatus)` after each delivery attempt;
 *   - `followChangeLog(consumer, position)` once, by a consumer of the change log, with a
 *     function giving how far it has read a family's log (its checkpoint).
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AgendaReads, Directory, StoreHealth } from './store/ports.js';
import type { FamilyRegistry } from './family/registry.js';
import type { FamilyActor } from './family/actor.js';

export interface MetricsSources {
  store: Pick<AgendaReads, 'agendaCount' | 'earliestDue'> &
    Pick<StoreHealth, 'onCommit' | 'writeFailure'> &
    Pick<Directory, 'listFamilies'>;
  registry: FamilyRegistry;
  now: () => Date;
  version: string;
}

/** How a webhook attempt ended: sent and accepted, failed (tried again later), or given up. */
export type WebhookOutcome = 'delivered' | 'failed' | 'gave_up';
const WEBHOOK_OUTCOMES: readonly WebhookOutcome[] = ['delivered', 'failed', 'gave_up'];

/** Where a consumer of the change log has read a family's log to (the seq of its checkpoint). */
export type ChangeLogPosition = (actor: FamilyActor) => number;

/** Request durations: a cached read takes well under a millisecond, a slow write seconds. */
const REQUEST_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];
/**
 * Commit and flush durations: an fsync takes from tenths of a millisecond to a second on a busy
 * disk.
 */
const STORE_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
];
/**
 * The agenda is counted up to this many jobs per scrape, so a huge agenda cannot make a scrape
 * slow.
 */
export const AGENDA_COUNT_LIMIT = 1_000_000;

interface Instruments {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status'>;
  requestSeconds: Histogram<'method' | 'route' | 'status'>;
  commitSeconds: Histogram;
  flushSeconds: Histogram;
  committedBatches: Counter;
  webhooks: Counter<'outcome' | 'status'>;
}

/** Requests answered, and their durations, by method, route template and status. */
function requestInstruments(registers: Registry[]) {
  const requests = new Counter({
    name: 'household_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const requestSeconds = new Histogram({
    name: 'household_http_request_duration_seconds',
    help: "Time from a request's arrival to its answer, by method, route template and status",
    labelNames: ['method', 'route', 'status'] as const,
    buckets: REQUEST_BUCKETS,
    registers,
  });
  return { requests, requestSeconds };
}

export class Metrics {
  private readonly m: Instruments | null;
  private readonly consumers = new Map<string, ChangeLogPosition>();

  constructor(
    readonly enabled: boolean,
    private readonly sources: MetricsSources,
  ) {
    this.m = enabled ? this.instruments() : null;
    if (this.m) {
      const m = this.m;
      sources.store.onCommit((ms, flushMs, batches) => {
        m.commitSeconds.observe(ms / 1000);
        m.flushSeconds.observe(flushMs / 1000);
        m.committedBatches.inc(batches);
      });
    }
  }

  /** Registers more metrics on the same registry (a cluster node's: src/cluster/metrics.ts). */
  extend(register: (registry: Registry) => void): void {
    if (this.m) register(this.m.registry);
  }

  /** The Content-Type of `render()`'s text. */
  get contentType(): string {
    return this.m?.registry.contentType ?? 'text/plain';
  }

  /** The Prometheus text exposition of every metric, read now. */
  async render(): Promise<string> {
    if (!this.m) throw new Error('metrics are disabled');
    return this.m.registry.metrics();
  }

  /**
   * One HTTP request answered: its method, route template (`unmatched` when none), status and
   * duration.
   */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    if (!this.m) return;
    const labels = { method, route, status: String(status) };
    this.m.requests.inc(labels);
    this.m.requestSeconds.observe(labels, seconds);
  }

  /**
   * A webhook delivery attempt ended. `responseStatus` is the receiver's HTTP status, or null
   * when there was no answer (timeout, refused address, network); it is counted by class.
   */
  webhookOutcome(outcome: WebhookOutcome, responseStatus: number | null): void {
    if (!this.m) return;
    const known = WEBHOOK_OUTCOMES.includes(outcome) ? outcome : 'failed';
    const status =
      responseStatus === null
        ? 'none'
        : responseStatus >= 100 && responseStatus < 600
          ? `${Math.floor(responseStatus / 100)}xx`
          : 'other';
    this.m.webhooks.inc({ outcome: known, status });
  }

  /**
   * A consumer of the change log (the webhook outbox…) registers how to read its position in a
   * family's log; its lag is the records each family in memory has logged durably beyond it.
   */
  followChangeLog(consumer: string, position: ChangeLogPosition): void {
    this.consumers.set(consumer, position);
  }

  private instruments(): Instruments {
    const registry = new Registry();
    const registers = [registry];
    const { version } = this.sources;
    collectDefaultMetrics({ register: registry });
    new Gauge({
      name: 'household_build_info',
      help: 'The running version (always 1)',
      labelNames: ['version', 'node'],
      registers,
      collect() {
        this.set({ version, node: process.version }, 1);
      },
    });
    const webhooks = new Counter({
      name: 'household_webhook_deliveries_total',
      help: "Webhook delivery attempts by outcome and the receiver's status class (`none`: no answer)",
      labelNames: ['outcome', 'status'] as const,
      registers,
    });
    const store = this.storeInstruments(registers);
    this.changeLogLag(registers);
    this.agenda(registers);
    return { registry, ...requestInstruments(registers), ...store, webhooks };
  }

  /** The store's group commits, and whether it can write. */
  private storeInstruments(registers: Registry[]) {
    const { store, registry: families } = this.sources;
    new Gauge({
      name: 'household_active_families',
      help: 'Families whose actor is in memory',
      registers,
      collect() {
        this.set(families.activeCount);
      },
    });
    const commitSeconds = new Histogram({
      name: 'household_store_commit_duration_seconds',
      help: 'Group commits of family batches: from the start of the transaction until it is on disk',
      buckets: STORE_BUCKETS,
      registers,
    });
    const flushSeconds = new Histogram({
      name: 'household_store_flush_duration_seconds',
      help: 'The part of each group commit spent waiting for the flush to disk',
      buckets: STORE_BUCKETS,
      registers,
    });
    const committedBatches = new Counter({
      name: 'household_store_committed_batches_total',
      help: 'Family batches committed (a group commit carries one per busy family)',
      registers,
    });
    new Gauge({
      name: 'household_store_writes_failing',
      help: '1 while the store cannot write (a full disk: writes answer 507), else 0',
      registers,
      collect() {
        this.set(store.writeFailure ? 1 : 0);
      },
    });
    return { commitSeconds, flushSeconds, committedBatches };
  }

  /** How far each consumer of the change log is behind, over the families in memory. */
  private changeLogLag(registers: Registry[]): void {
    const { store, registry: families } = this.sources;
    const consumers = this.consumers;
    new Gauge({
      name: 'household_changelog_lag_records',
      help: 'Change-log records logged durably but not yet taken by a consumer, summed over the families in memory',
      labelNames: ['consumer'] as const,
      registers,
      collect() {
        this.reset();
        if (!consumers.size) return;
        const actors = store
          .listFamilies()
          .map((f) => families.peek(f.id))
          .filter((a): a is FamilyActor => a !== undefined);
        for (const [consumer, position] of consumers) {
          let lag = 0;
          for (const actor of actors) lag += Math.max(0, actor.lastDurableSeq - position(actor));
          this.set({ consumer }, lag);
        }
      },
    });
  }

  /** The agenda's depth, what is due, and how late the earliest due job is. */
  private agenda(registers: Registry[]): void {
    const { store, now } = this.sources;
    new Gauge({
      name: 'household_agenda_jobs',
      help: `Jobs on the agenda (reminders, retries, refreshes…), counted up to ${AGENDA_COUNT_LIMIT}`,
      registers,
      collect() {
        this.set(store.agendaCount(Number.MAX_SAFE_INTEGER, AGENDA_COUNT_LIMIT));
      },
    });
    new Gauge({
      name: 'household_agenda_due_jobs',
      help: 'Jobs on the agenda whose time has come and that have not run yet',
      registers,
      collect() {
        this.set(store.agendaCount(now().getTime(), AGENDA_COUNT_LIMIT));
      },
    });
    new Gauge({
      name: 'household_agenda_lateness_seconds',
      help: 'How late the earliest due job is (0 when nothing is due)',
      registers,
      collect() {
        const earliest = store.earliestDue();
        const late = earliest === null ? 0 : now().getTime() - earliest;
        this.set(Math.max(0, late) / 1000);
      },
    });
  }
}
