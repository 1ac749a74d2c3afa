/**
 * The scheduler: runs the jobs of the durable agenda when they are due (docs/design.md,
 * "The agenda").
 *
 * Jobs live in the store by due time (`['agenda', dueAt, familyId, jobId]`), written in the same
 * transaction as the decision that made them, so nothing due is lost across a restart and idle
 * families need not be in memory. One unref'd timer is set for the earliest due job, but never
 * further than a minute ahead: long delays, clock jumps and a suspended machine cost at most a
 * minute. A due job is handed to the handler of its `kind`, which runs it through the family's
 * actor as a command whose decision removes (or moves) the job together with its effect — so a
 * job fires at most once. A job found more than `catchUpMinutes` late (the daemon was down) is
 * handed over as `missed`: the handler records it as skipped instead of acting late.
 */
import type { Logger } from 'pino';
import type { FamilyRegistry } from '../family/registry.js';
import { OwnedElsewhere } from '../family/ownership.js';
import type { FamilyActor } from '../family/actor.js';
import type { AgendaReads, BatchCommits, Directory } from '../store/ports.js';
import type { StoredAgendaJob } from '../store/types.js';
import type { AgendaJob, Command } from '../domain/shared/state.js';
import type { Job, JobKind } from '../domain/shared/jobs.js';
import { AGENDA_TABLE, SCHEDULER_CALLER } from '../domain/shared/agenda.js';
import { noChange } from '../domain/shared/decision.js';

export interface JobContext {
  actor: FamilyActor;
  now: Date;
  /** Later than `scheduler.catchUpMinutes`: record it as skipped rather than act on it. */
  missed: boolean;
}

/**
 * Runs one due job. It must leave the job off the agenda (or moved to a later time) when it
 * returns — normally by executing `fireCommand(job, …)`. It may do I/O before or after, never
 * inside a command.
 */
export type JobHandler<K extends JobKind = JobKind> = (
  job: StoredAgendaJob<Job<K>>,
  ctx: JobContext,
) => Promise<void>;

/** One handler for every kind of job: a kind without one is a compile error, not a log line. */
export type JobHandlers = { readonly [K in JobKind]: JobHandler<K> };

export interface SchedulerDeps {
  store: AgendaReads & BatchCommits & Pick<Directory, 'getFamily'>;
  registry: FamilyRegistry;
  now: () => Date;
  logger: Logger;
  catchUpMinutes: number;
  handlers: JobHandlers;
  /**
   * Where due jobs are found: the agenda of the families this process owns (the topology's;
   * default: the store's whole agenda). The others run on their owners.
   */
  agenda?: Pick<AgendaReads, 'dueJobs' | 'earliestDue'>;
}

/** At most this many jobs run at once; the rest wait for the next pass. */
const BATCH = 200;
const MAX_SLEEP_MS = 60_000;
/** A job whose handler failed is tried again this much later (it stays on the agenda meanwhile). */
const RETRY_AFTER_MS = 60_000;

export class Scheduler {
  private timer: NodeJS.Timeout | null = null;
  private wakeAt = Infinity;
  private running: Promise<number> | null = null;
  private again = false;
  private stopped = true;
  /** Jobs handed to a handler and not finished: never handed out twice at once. */
  private readonly inFlight = new Set<string>();

  constructor(private readonly deps: SchedulerDeps) {}

  start(): void {
    this.stopped = false;
    this.arm(0);
  }

  /** Waits for the jobs being run and sets no more timers. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.running) await this.running;
  }

  /** A decision put a job due at `dueAt`: wake up for it if that is sooner than planned. */
  jobAdded(dueAt: number): void {
    if (this.stopped) return;
    const delay = dueAt - this.deps.now().getTime();
    if (Date.now() + Math.max(0, delay) < this.wakeAt) this.arm(delay);
  }

  /**
   * Runs every job due now (in bounded passes) and resolves with how many ran. Tests that move
   * a fake clock call it instead of waiting for the timer.
   */
  async runDue(): Promise<number> {
    if (this.running) {
      this.again = true;
      await this.running;
      return this.runDue();
    }
    this.running = this.pass();
    try {
      return await this.running;
    } finally {
      this.running = null;
    }
  }

  private async pass(): Promise<number> {
    let total = 0;
    do {
      this.again = false;
      const now = this.deps.now();
      const due = (this.deps.agenda ?? this.deps.store)
        .dueJobs(now.getTime(), BATCH)
        .filter((j) => !this.inFlight.has(slot(j)));
      total += due.length;
      await Promise.all(due.map((job) => this.runOne(job, now)));
      if (due.length === BATCH) this.again = true;
    } while (this.again && !this.stopped);
    if (!this.stopped) this.arm(this.nextDelay());
    return total;
  }

  private async runOne(job: StoredAgendaJob, now: Date): Promise<void> {
    const key = slot(job);
    this.inFlight.add(key);
    try {
      const family = this.deps.store.getFamily(job.familyId);
      if (!family) {
        // The family is gone: nothing can act on this job.
        this.deps.logger.warn(
          { job: job.id, kind: job.kind },
          'dropping a job of a family that no longer exists',
        );
        await this.deps.store.commit(job.familyId, { agenda: [{ remove: job.id }] });
        return;
      }
      const actor = await this.deps.registry.get(family);
      const missed = now.getTime() - job.dueAt > this.deps.catchUpMinutes * 60_000;
      // A job of a kind this version does not know (written by a newer one) has no handler.
      const handler = this.deps.handlers[job.kind] as JobHandler | undefined;
      if (!handler) {
        this.deps.logger.error(
          { job: job.id, kind: job.kind, family: family.slug },
          'no handler for this kind of job; removing it',
        );
        await actor.execute(
          fireCommand(job, () => noChange()),
          SCHEDULER_CALLER,
        );
        return;
      }
      await handler(job, { actor, now, missed });
    } catch (err) {
      // The family moved to another cluster node meanwhile: the job is that node's now.
      if (err instanceof OwnedElsewhere) return;
      this.deps.logger.error(
        { err, job: job.id, kind: job.kind },
        'a scheduled job failed; it will be tried again',
      );
      await this.postpone(job).catch((e: unknown) =>
        this.deps.logger.error({ err: e }, 'could not postpone a failed job'),
      );
    } finally {
      this.inFlight.delete(key);
    }
  }

  /** Moves a failed job a minute on, unless its family moved or removed it meanwhile. */
  private async postpone(job: StoredAgendaJob): Promise<void> {
    const current = this.deps.store.getJob(job.familyId, job.id);
    if (!current || current.dueAt !== job.dueAt) return;
    const family = this.deps.store.getFamily(job.familyId);
    if (!family) return;
    const actor = await this.deps.registry.get(family);
    const later = { ...jobOf(job), dueAt: this.deps.now().getTime() + RETRY_AFTER_MS };
    await actor.execute((state) => {
      const live = state.get<AgendaJob>(AGENDA_TABLE, job.id);
      if (!live || live.dueAt !== job.dueAt) return noChange();
      return noChange(undefined, [{ put: later }]);
    }, SCHEDULER_CALLER);
  }

  private nextDelay(): number {
    const earliest = (this.deps.agenda ?? this.deps.store).earliestDue();
    return earliest === null ? MAX_SLEEP_MS : earliest - this.deps.now().getTime();
  }

  private arm(delayMs: number): void {
    if (this.stopped) return;
    const delay = Math.min(MAX_SLEEP_MS, Math.max(0, delayMs));
    if (this.timer) clearTimeout(this.timer);
    this.wakeAt = Date.now() + delay;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.wakeAt = Infinity;
      this.runDue().catch((err: unknown) => {
        this.deps.logger.error({ err }, 'the scheduler pass failed');
        this.arm(MAX_SLEEP_MS);
      });
    }, delay);
    this.timer.unref();
  }
}

/**
 * The command a handler executes for a due job: when the job is still on the agenda as it was
 * found (the family did not move or remove it meanwhile), runs `effect` and removes the job in
 * the same decision — unless the effect put the same job id again (a repeating job moving on).
 * A stale job decides nothing: it fired already or was moved.
 */
export function fireCommand<R>(
  job: Pick<AgendaJob, 'id' | 'dueAt'>,
  effect: Command<R>,
): Command<R | undefined> {
  return (state, ctx) => {
    const live = state.get<AgendaJob>(AGENDA_TABLE, job.id);
    if (!live || live.dueAt !== job.dueAt) return noChange();
    const d = effect(state, ctx);
    const agenda = d.agenda ?? [];
    const movesItself = agenda.some((a) => 'put' in a && a.put.id === job.id);
    return { ...d, agenda: movesItself ? agenda : [...agenda, { remove: job.id }] };
  };
}

function jobOf(job: StoredAgendaJob): AgendaJob {
  const { familyId: _f, ...rest } = job;
  return rest;
}

function slot(job: StoredAgendaJob): string {
  return `${job.familyId}\u0000${job.id}`;
}
