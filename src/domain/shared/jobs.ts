/**
 * Every kind of agenda job and the data it carries, in one table: a job is a union keyed by
 * `kind`, so a decider that puts one and the handler that runs it agree on its data, and the
 * scheduler's handler table (src/daemon/jobs.ts) is checked to have one handler per kind.
 * A new kind is added here, with its data, in the same change as its handler.
 */
import type { DeliveryJobData } from '../webhooks/types.js';

export interface JobData {
  /** A notification's pending deliveries (notifications/compose.ts). */
  'notify.send': { notificationId: string };
  /** An event's reminder number `index` for one occurrence (notifications/schedule.ts). */
  'notify.reminder': { eventId: string; index: number; occurrenceDate: string };
  'notify.leaveBy': { eventId: string; occurrenceDate: string };
  'notify.coverage': { eventId: string; occurrenceDate: string };
  'notify.check': { checkId: string };
  'notify.routine': { routineId: string };
  /** Dropping old notifications: no data. */
  'notify.prune': undefined;
  /** A webhook delivery's retry, or a lease that ran out. */
  'webhook.deliver': DeliveryJobData;
  /** A feed's scheduled (or requested) refresh. */
  'feed.refresh': { sourceId: string };
}

export type JobKind = keyof JobData;

/**
 * A job on the durable agenda: something the family's actor must do at `dueAt` (ms since the
 * epoch, UTC). Jobs are data; the scheduler hands a due job back to the actor as a command.
 * `id` is unique within the family, so putting a job with the same id moves it.
 */
export type Job<K extends JobKind = JobKind> = {
  [P in K]: { id: string; kind: P; dueAt: number } & (JobData[P] extends undefined
    ? { data?: undefined }
    : { data: JobData[P] });
}[K];

/** A job without its id (the id says which thing it is for; the rest what and when). */
export type JobSpec<K extends JobKind = JobKind> = K extends JobKind ? Omit<Job<K>, 'id'> : never;
