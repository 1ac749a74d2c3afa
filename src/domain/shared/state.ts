/**
 * The in-memory state of one family and the shape of a decision.
 *
 * State is a set of tables (name → id → record). Domain deciders never mutate it: they return
 * a Decision whose `changes` the actor commits to LMDB and then applies here with `apply`
 * (the one generic evolve). Records are treated as immutable values: a change replaces one.
 * Map iteration order is creation order (records load in id order and ids are time-sortable;
 * replacing a record keeps its place), which gives "newest first" by walking backwards.
 */
import type { Collection } from '../collections/types.js';
import type { IntakeUpdate } from '../feeds/types.js';
import type { LoggedEventType } from './events.js';
import type { IdGenerator } from './ids.js';
import type { Job } from './jobs.js';

export interface FamilyInfo {
  id: string;
  slug: string;
  name: string;
  timezone: string;
  createdAt: string;
  /**
   * A place name or `lat,lon` for the weather in contextual notifications (`family update
   * --location`).
   */
  location?: string | null;
  /**
   * The household's language and formats, a BCP 47 tag (docs/i18n.md); absent on a family that
   * never chose one, which speaks `en` (read it with `familyLocale`).
   */
  locale?: string;
}

/** A family's locale: its own, else `en` (a family written before the field existed). */
export function familyLocale(family: Pick<FamilyInfo, 'locale'>): string {
  return family.locale ?? 'en';
}

/** Who made a change: the API key and the household member it acts for. */
export interface Caller {
  keyId: string | null;
  personId: string | null;
  /** The key's name, used as a note's author when the key has no person. */
  keyName?: string | null;
  /** The OAuth grant an assistant acts through (src/oauth); absent for a key's own requests. */
  grantId?: string;
  /** The family display whose page acts (src/domain/displays/actions.ts); it has no key. */
  displayId?: string;
}

export interface RecordChange {
  table: string;
  id: string;
  /** The new record, or null (or undefined) to delete it. */
  value: unknown;
}

export interface LogEvent {
  type: LoggedEventType;
  object: unknown;
  previous?: unknown;
}

/**
 * An entry of a store-wide index, for lookups that do not start from a family (a public share
 * token → its family). Written in the same transaction as the decision's records.
 * `key` should be a hash, never a secret; `familyId` null removes the entry.
 */
export interface IndexChange {
  index: 'share-token';
  key: string;
  familyId: string | null;
}

/** A job on the durable agenda, typed by its kind (shared/jobs.ts). */
export type AgendaJob = Job;

/** Adds (or moves) a job, or removes one by id — in the same transaction as the decision. */
export type AgendaChange = { put: AgendaJob } | { remove: string };

export interface Decision<R> {
  result: R;
  changes: RecordChange[];
  events: LogEvent[];
  indexes?: IndexChange[];
  agenda?: AgendaChange[];
  /**
   * The family's own settings (name, zone, location) as this decision leaves them: written
   * with the rest of the decision and made the state's `family` (src/domain/family/settings.ts).
   */
  family?: FamilyInfo;
  /** The id of the queued `family update` (from the CLI) this decision applies. */
  settlesQueuedUpdate?: string;
}

/** What an area adds to a decision another area is making: records, log events, agenda jobs. */
export interface Reaction {
  changes: RecordChange[];
  events: LogEvent[];
  agenda?: AgendaChange[];
}

/**
 * What every area does when another area changes something, inside the same decision (so it
 * all lands in one transaction). Composed once from the list of areas (src/domain/areas.ts) by
 * the actor's owner and handed to deciders in the command context, so that an area that makes
 * the change never imports the areas that react to it.
 */
export interface Reactions {
  /** Calendar events were removed (a delete, a calendar or a feed removed). */
  eventsRemoved(state: FamilyState, eventIds: readonly string[], ctx: CommandContext): Reaction;
  /**
   * A calendar event was created or changed (the series or one occurrence): `event` is the
   * record as this decision writes it, while `state` still holds the one before (or none).
   */
  eventChanged(state: FamilyState, event: { readonly id: string }, ctx: CommandContext): Reaction;
  /** A collection was deleted with these entries. */
  collectionDeleted(
    state: FamilyState,
    collection: Collection,
    entryIds: ReadonlySet<string>,
    ctx: CommandContext,
  ): Reaction;
  /** A feed refresh added or changed events matching the feed's hint words. */
  feedIntake(state: FamilyState, intake: IntakeUpdate, ctx: CommandContext): Reaction;
}

export interface CommandContext {
  now: Date;
  newId: IdGenerator;
  caller: Caller;
  family: FamilyInfo;
  /** Public base URL of the daemon (share links), without a trailing slash. */
  publicUrl: string;
  /**
   * Which outbound channels the daemon has configured, for notifications a decision makes itself.
   */
  transports?: { email: boolean; push: boolean; sms: boolean };
  /**
   * The sequence number of the last change-log record decided before this command (the
   * actor always sets it); the command's own events take the numbers after it. Lets a
   * decision say "from this point of the log on" (a new webhook destination).
   */
  lastSeq?: number;
  /** Every area's reactions to this decision's removed and changed records. */
  react: Reactions;
}

export type Command<R> = (state: FamilyState, ctx: CommandContext) => Decision<R>;

export class FamilyState {
  /** Bumped by every applied decision; derived caches compare against it. */
  version = 0;
  private readonly tables = new Map<string, Map<string, unknown>>();
  private readonly caches = new Map<string, { version: number; value: unknown }>();
  /**
   * The last applied changes, so an index kept beside the state (context search) can follow
   * the family's writes change by change instead of rebuilding; see `changesSince`.
   */
  private journal: { version: number; changes: readonly RecordChange[] }[] = [];
  private journalSize = 0;
  /** Versions up to this one are not in the journal. */
  private journalFloor = 0;

  constructor(public family: FamilyInfo) {}

  table<T>(name: string): ReadonlyMap<string, T> {
    return (this.tables.get(name) ?? EMPTY) as ReadonlyMap<string, T>;
  }

  get<T>(table: string, id: string): T | undefined {
    return this.tables.get(table)?.get(id) as T | undefined;
  }

  /** Records of a table, newest first. */
  newestFirst<T>(name: string): T[] {
    return Array.from(this.table<T>(name).values()).reverse();
  }

  tableNames(): string[] {
    return Array.from(this.tables.keys());
  }

  /** Forgets every record (before a reload from disk after a failed commit). */
  reset(): void {
    this.tables.clear();
    this.caches.clear();
    this.version++;
    this.journal = [];
    this.journalSize = 0;
    this.journalFloor = this.version;
  }

  /** The generic evolve: applies committed record changes. */
  apply(changes: readonly RecordChange[]): void {
    for (const c of changes) {
      let t = this.tables.get(c.table);
      if (c.value === null || c.value === undefined) {
        t?.delete(c.id);
        continue;
      }
      if (!t) this.tables.set(c.table, (t = new Map<string, unknown>()));
      t.set(c.id, c.value);
    }
    this.version++;
    this.remember(changes);
  }

  /**
   * The record changes applied after `version`, oldest first, or null when the journal no
   * longer reaches back that far (a reload, a large import, or too many writes since): the
   * caller then rebuilds from the tables.
   */
  changesSince(version: number): RecordChange[] | null {
    if (version < this.journalFloor || version > this.version) return null;
    const out: RecordChange[] = [];
    for (const j of this.journal) if (j.version > version) out.push(...j.changes);
    return out;
  }

  private remember(changes: readonly RecordChange[]): void {
    if (changes.length > JOURNAL_MAX) {
      // A whole load or import: nobody follows that change by change.
      this.journal = [];
      this.journalSize = 0;
      this.journalFloor = this.version;
      return;
    }
    this.journal.push({ version: this.version, changes });
    this.journalSize += changes.length;
    while (this.journalSize > JOURNAL_MAX) {
      const dropped = this.journal.shift()!;
      this.journalSize -= dropped.changes.length;
      this.journalFloor = dropped.version;
    }
  }

  /**
   * Like `derived`, for a value that can follow the family's writes: after a write it is
   * brought up to date from the journal by `follow` (which changes it in place and answers
   * false when it cannot, e.g. for a kind of change it does not handle) instead of being
   * recomputed. A value that a busy family's every write would otherwise rebuild (an index
   * over thousands of records) then costs its changes, not its size. Callers must not keep
   * such a value past the next write.
   */
  followed<T>(
    key: string,
    build: () => T,
    follow: (value: T, changes: readonly RecordChange[]) => boolean,
  ): T {
    const hit = this.caches.get(key);
    if (hit) {
      if (hit.version === this.version) return hit.value as T;
      const changes = this.changesSince(hit.version);
      if (changes && follow(hit.value as T, changes)) {
        hit.version = this.version;
        return hit.value as T;
      }
    }
    const value = build();
    if (this.caches.size > 256) this.caches.clear();
    this.caches.set(key, { version: this.version, value });
    return value;
  }

  /**
   * A value derived from the state, recomputed only after a write (e.g. expanded calendar
   * occurrences). `key` names the derivation and its parameters.
   */
  derived<T>(key: string, compute: () => T): T {
    const hit = this.caches.get(key);
    if (hit && hit.version === this.version) return hit.value as T;
    const value = compute();
    if (this.caches.size > 256) this.caches.clear();
    this.caches.set(key, { version: this.version, value });
    return value;
  }
}

const EMPTY: ReadonlyMap<string, unknown> = new Map();
/** Record changes the journal keeps (a few seconds of a busy family's writes). */
const JOURNAL_MAX = 2_048;
