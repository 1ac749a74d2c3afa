/**
 * Families and keys as the CLI and the first start create and change them: create a family
 * with its built-in records (and a first admin key), update it, create and revoke keys.
 */
import { Conflict, Invalid, NotFound } from '../domain/shared/errors.js';
import { charCount } from '../domain/shared/text.js';
import { normalizeTimeZone } from '../domain/shared/time.js';
import type { FamilyInfo, RecordChange } from '../domain/shared/state.js';
import { seedRecords } from '../domain/areas.js';
import type { IdGenerator } from '../domain/shared/ids.js';
import type { Directory, LogReads } from '../store/ports.js';

/** What family administration reads and writes: the directory, and a person's record. */
export type AdminStore = Pick<
  Directory,
  | 'createFamily'
  | 'getFamilyBySlug'
  | 'getKey'
  | 'listKeys'
  | 'putKey'
  | 'transactKeys'
  | 'queueFamilyUpdate'
  | 'queuedFamilyUpdate'
> &
  Pick<LogReads, 'getRecord'>;
import type { ApiKeyRecord, QueuedFamilyUpdate, Scope } from '../store/types.js';
import { checkFamilyPatch, checkLocale, patched } from '../domain/family/settings.js';
import { makeKey, revokeWithSessions, type NewKey } from './keys.js';
import { SCOPES } from './scopes.js';

export const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

/**
 * The zone as the API stores it (IANA casing, named zones only: normalizeTimeZone, the one
 * check the API and the feeds use too), or Invalid naming the field.
 */
function zoneOf(tz: string): string {
  const zone = normalizeTimeZone(tz);
  if (zone === null) throw Invalid.at(['timezone'], `"${tz}" is not an IANA time zone`);
  return zone;
}

export interface CreateFamilyInput {
  slug: string;
  name?: string | undefined;
  timezone?: string | undefined;
  /** A BCP 47 tag (docs/i18n.md); without one the family speaks `en`. */
  locale?: string | undefined;
}

/** Creates a family with its built-in records and, optionally, a first admin key. */
export async function createFamily(
  store: AdminStore,
  input: CreateFamilyInput,
  deps: { now: Date; newId: IdGenerator; defaultTimezone: string; withKey?: string | undefined },
): Promise<{ family: FamilyInfo; apiKey?: string; key?: ApiKeyRecord }> {
  if (!SLUG.test(input.slug))
    throw Invalid.at(
      ['slug'],
      'must be lower-case letters, digits and dashes (1 to 63, starting with a letter or digit)',
    );
  const timezone = zoneOf(input.timezone ?? deps.defaultTimezone);
  const name = (input.name ?? input.slug).trim();
  if (!name || charCount(name) > 200)
    throw Invalid.at(['name'], 'must be 1 to 200 characters long');
  const family: FamilyInfo = {
    id: deps.newId('fam'),
    slug: input.slug,
    name,
    timezone,
    createdAt: deps.now.toISOString(),
    ...(input.locale !== undefined ? { locale: checkLocale(input.locale) } : {}),
  };
  const seed: RecordChange[] = seedRecords(family, family.createdAt);
  const key = deps.withKey
    ? makeKey(family.id, { name: deps.withKey, scopes: [...SCOPES], personId: null }, deps.now)
    : undefined;
  await store.createFamily(family, seed, key?.record);
  return { family, ...(key ? { apiKey: key.apiKey, key: key.record } : {}) };
}

/**
 * `family update` from the command line: checks the change (the API's rules) and queues it for
 * the family's actor (queuedUpdates.ts), which applies it within a fraction of a second when a
 * daemon runs, else when the family next loads. Answers the family as the change leaves it.
 */
export async function queueFamilyUpdate(
  store: AdminStore,
  slug: string,
  input: {
    name?: string | undefined;
    timezone?: string | undefined;
    location?: string | undefined;
    locale?: string | undefined;
  },
  deps: { now: Date; id: string },
): Promise<{ family: FamilyInfo; queued: QueuedFamilyUpdate }> {
  const family = store.getFamilyBySlug(slug);
  if (!family) throw new NotFound(`no family with slug "${slug}"`);
  const patch = checkFamilyPatch(input);
  const queued = await store.queueFamilyUpdate(family.id, patch, deps.id, deps.now.toISOString());
  if (!queued) throw new NotFound(`no family with slug "${slug}"`);
  return { family: patched(family, queued.patch), queued };
}

/**
 * Waits up to `waitMs` for a daemon to apply a queued update; true once it has (the queue no
 * longer holds it, or holds a newer one merged over it).
 */
export async function waitForQueuedUpdate(
  store: AdminStore,
  queued: QueuedFamilyUpdate,
  waitMs: number,
): Promise<boolean> {
  const until = Date.now() + waitMs;
  for (;;) {
    const now = store.queuedFamilyUpdate(queued.familyId);
    if (!now) return true;
    if (now.id !== queued.id) return false; // another update was merged over it: it goes with that one
    if (Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Creates a key for a family; the plaintext is returned once. */
export async function createKey(
  store: AdminStore,
  slug: string,
  opts: {
    name?: string | undefined;
    scopes?: Scope[] | undefined;
    personId?: string | null | undefined;
  },
  now: Date,
): Promise<NewKey> {
  const family = store.getFamilyBySlug(slug);
  if (!family) throw new NotFound(`no family with slug "${slug}"`);
  const scopes = opts.scopes && opts.scopes.length ? opts.scopes : [...SCOPES];
  for (const s of scopes)
    if (!SCOPES.includes(s))
      throw Invalid.at(['scopes'], `"${s}" is not one of read, write, admin`);
  const personId = opts.personId ?? null;
  if (personId !== null) {
    const person = store.getRecord<{ deletedAt?: string | null }>(family.id, 'people', personId);
    if (!person || person.deletedAt)
      throw Invalid.at(['person'], `no person "${personId}" in family "${slug}"`);
  }
  const key = makeKey(family.id, { name: opts.name?.trim() || 'API key', scopes, personId }, now);
  await store.putKey(key.record);
  return key;
}

export async function revokeKey(
  store: AdminStore,
  keyId: string,
  now: Date,
): Promise<ApiKeyRecord> {
  // The sessions signed in with it end in the same write.
  const done = await revokeWithSessions(store, null, keyId, now);
  if (!done) throw new NotFound(`no key "${keyId}"`);
  if (done.already) throw new Conflict(`key "${keyId}" was already revoked`);
  return done.key;
}
