/**
 * The scheduler's handlers for the notifications area's jobs. Each one:
 *   1. gathers what the text needs from outside (the weather, for contextual texts) — no I/O
 *      happens inside a command;
 *   2. fires through `fireCommand`: the notification record, its marks, the next schedule and
 *      the job's removal (or move) commit together, so it fires at most once;
 *   3. only then hands the record's pending deliveries to the notifier. A crash between 2 and 3
 *      leaves them pending with their `notify.send` job, which the scheduler runs at start.
 */
import type { Directory } from '../store/ports.js';
import type { Config } from '../config.js';
import type { Egress } from '../integrations/egress.js';
import { SCHEDULER_CALLER } from '../domain/shared/agenda.js';
import { todayIn } from '../domain/shared/time.js';
import type { CommandContext, Decision, FamilyState } from '../domain/shared/state.js';
import { getEvent } from '../domain/calendar/events.js';
import {
  fireCheck,
  fireCoverage,
  fireLeaveBy,
  fireReminder,
  fireRoutine,
  prune,
  type FireOptions,
  type Fired,
} from '../domain/notifications/fire.js';
import { occurrenceOn } from '../domain/notifications/occurrences.js';
import type { WeatherNote } from '../domain/notifications/texts.js';
import { JOB, ROUTINES, type RoutineRecord } from '../domain/notifications/types.js';
import {
  fireCommand,
  type JobHandler,
  type JobHandlers,
  type JobContext,
} from '../scheduler/scheduler.js';
import type { Job, JobKind } from '../domain/shared/jobs.js';
import type { StoredAgendaJob } from '../store/types.js';
import type { Notifier } from './sender.js';
import { weatherFor } from './weather.js';

export interface NotificationJobDeps {
  store: Pick<Directory, 'getFamily'>;
  config: Config;
  egress: Egress;
  notifier: Notifier;
}

type Effect<K extends JobKind> = (
  job: StoredAgendaJob<Job<K>>,
) => (state: FamilyState, ctx: CommandContext, opts: FireOptions) => Decision<Fired>;
/** When the text is contextual: the local date whose weather it needs, else null. */
type NeedsWeather<K extends JobKind> = (
  job: StoredAgendaJob<Job<K>>,
  ctx: JobContext,
) => Promise<string | null>;

/** The notifications area's kinds of job. */
type NotifyKind = (typeof JOB)[keyof typeof JOB];

/**
 * At most this many firings run at once. Thousands of reminders may come due in the same
 * minute; each firing is a few commits and a transport call, and letting the scheduler's whole
 * pass run at once would starve the API's reads on the one JavaScript thread.
 */
export const FIRING_CONCURRENCY = 48;

/** A counting semaphore that also yields to the event loop before each task. */
class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      await new Promise<void>((resolve) => setImmediate(resolve));
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

export function notificationJobs(deps: NotificationJobDeps): Pick<JobHandlers, NotifyKind> {
  const gate = new Gate(FIRING_CONCURRENCY);
  /** The weather for the family's location on `date`, or null when it has none. */
  const weather = async (familyId: string, date: string): Promise<WeatherNote | null> => {
    const family = deps.store.getFamily(familyId);
    if (!family?.location) return null;
    return weatherFor(deps.egress, deps.config, family.location, date, family.timezone);
  };

  const fire =
    <K extends JobKind>(effect: Effect<K>, needsWeather?: NeedsWeather<K>): JobHandler<K> =>
    (job, ctx) =>
      gate.run(async () => {
        let w: WeatherNote | null = null;
        if (!ctx.missed && needsWeather) {
          const date = await needsWeather(job, ctx);
          if (date) w = await weather(job.familyId, date);
        }
        const opts: FireOptions = {
          transports: deps.notifier.transports,
          missed: ctx.missed,
          weather: w,
        };
        const run = effect(job);
        const fired = await ctx.actor.execute(
          fireCommand(job, (s, c) => run(s, c, opts)),
          SCHEDULER_CALLER,
        );
        if (fired && fired.deliveries.some((d) => d.status === 'pending'))
          await deps.notifier.deliver(ctx.actor, fired.id);
      });

  return {
    [JOB.send]: async (job, ctx) => {
      const { notificationId } = job.data;
      await deps.notifier.deliver(ctx.actor, notificationId, { missed: ctx.missed });
    },
    [JOB.reminder]: fire<typeof JOB.reminder>(
      (job) => (s, c, o) => fireReminder(s, c, job.data, o),
      (job, ctx) => {
        const data = job.data;
        return ctx.actor.read((s) => {
          const ev = getEvent(s, data.eventId);
          const occ = ev ? occurrenceOn(ev, data.occurrenceDate, s.family.timezone) : null;
          return occ?.data.reminders?.[data.index]?.mode === 'contextual' ? occ.data.date : null;
        });
      },
    ),
    [JOB.leaveBy]: fire<typeof JOB.leaveBy>((job) => (s, c, o) => fireLeaveBy(s, c, job.data, o)),
    [JOB.coverage]: fire<typeof JOB.coverage>(
      (job) => (s, c, o) => fireCoverage(s, c, job.data, o),
    ),
    [JOB.check]: fire<typeof JOB.check>((job) => (s, c, o) => fireCheck(s, c, job.data, o)),
    [JOB.routine]: fire<typeof JOB.routine>(
      (job) => (s, c, o) => fireRoutine(s, c, { ...job.data, dueAt: job.dueAt }, o),
      (job, ctx) => {
        const { routineId } = job.data;
        return ctx.actor.read((s) => {
          const r = s.get<RoutineRecord>(ROUTINES, routineId);
          return r?.mode === 'contextual' ? todayIn(s.family.timezone, ctx.now) : null;
        });
      },
    ),
    [JOB.prune]: async (job, ctx) => {
      await ctx.actor.execute(
        fireCommand(job, (s, c) => prune(s, c, job.id, job.kind)),
        SCHEDULER_CALLER,
      );
    },
  };
}
