/** The durable agenda in LMDB: jobs keyed by due time, plus a per-family index by job id. */
import type { RootDatabase } from 'lmdb';
import type { AgendaChange } from '../../domain/shared/state.js';
import { keys } from '../layout.js';
import type { AgendaReads } from '../ports.js';
import type { StoredAgendaJob } from '../types.js';
import type { LmdbEnv } from './env.js';

/** Puts, moves or removes one job inside a write transaction (commits and imports use it). */
export function writeAgendaChange(db: RootDatabase, familyId: string, change: AgendaChange): void {
  const id = 'put' in change ? change.put.id : change.remove;
  const where = keys.agendaJob(familyId, id);
  const old = db.get(where) as number | undefined;
  if (old !== undefined) db.removeSync(keys.agenda(old, familyId, id));
  if ('put' in change) {
    const job: StoredAgendaJob = { ...change.put, familyId };
    db.putSync(keys.agenda(job.dueAt, familyId, id), job);
    db.putSync(where, job.dueAt);
  } else if (old !== undefined) {
    db.removeSync(where);
  }
}

export class LmdbAgenda implements AgendaReads {
  constructor(private readonly env: LmdbEnv) {}

  /** Read on every call: the environment is replaced when it is reopened (env.ts). */
  private get db(): RootDatabase {
    return this.env.db;
  }

  dueJobs(uptoMs: number, limit: number): StoredAgendaJob[] {
    const out: StoredAgendaJob[] = [];
    const range = { start: keys.agendaRangeStart(), end: keys.agendaRangeEnd(uptoMs), limit };
    for (const { value } of this.db.getRange(range)) out.push(value as StoredAgendaJob);
    return out;
  }

  earliestDue(): number | null {
    const range = {
      start: keys.agendaRangeStart(),
      end: keys.agendaRangeEnd(Number.MAX_SAFE_INTEGER),
      limit: 1,
    };
    for (const { value } of this.db.getRange(range)) return (value as StoredAgendaJob).dueAt;
    return null;
  }

  /** Counts keys only, so a long agenda costs little to count. */
  agendaCount(uptoMs: number, limit: number): number {
    return this.db.getKeysCount({
      start: keys.agendaRangeStart(),
      end: keys.agendaRangeEnd(uptoMs),
      limit,
    });
  }

  getJob(familyId: string, jobId: string): StoredAgendaJob | undefined {
    const due = this.db.get(keys.agendaJob(familyId, jobId)) as number | undefined;
    if (due === undefined) return undefined;
    return this.db.get(keys.agenda(due, familyId, jobId)) as StoredAgendaJob | undefined;
  }

  familyJobs(familyId: string): StoredAgendaJob[] {
    const out: StoredAgendaJob[] = [];
    const range = {
      start: keys.agendaJobRangeStart(familyId),
      end: keys.agendaJobRangeEnd(familyId),
    };
    for (const { key, value } of this.db.getRange(range)) {
      const where = keys.agenda(value as number, familyId, (key as string[])[2]);
      const job = this.db.get(where) as StoredAgendaJob | undefined;
      if (job) out.push(job);
    }
    return out;
  }
}
