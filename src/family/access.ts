/**
 * Who may open the household pages, and the devices an admin adds there (docs/pages.md). Every
 * one of these is a key record of the family (store keys: listed, revoked and replicated like
 * any key), told apart by its `kind`:
 *
 * - `setup`: a family never set up. Its secret is the setup code printed at each start until
 *   the setup page has been sent with it; then it is revoked, and the family counts as set up.
 * - `link`: a one-time sign-in link (`household-organizer open <slug>`), 10 minutes, one use.
 * - `session`: a signed-in browser. The `ho_session` cookie holds `hs_<id>_<secret>`: no API key,
 *   taken by the pages door alone (which acts through REST with it as an inner call); 30 days,
 *   sliding; sign-out revokes it. A session signed in with a key or device names it
 *   (`derivedFrom`) and ends with it; at most SESSIONS_PER_KEY per key (the oldest end first).
 * - `device`: an API key with a name and a person, and for 10 minutes a pairing link whose token
 *   unseals the key once: the first Continue on its page spends the link in the same write.
 *
 * Every one-time secret here (setup code, sign-in link, pairing link) is spent by a
 * compare-and-set inside one keys transaction (`transactKeys`): N concurrent uses, one success.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Directory, WholeFamilies } from '../store/ports.js';
import { exportFamily, type FamilyExport } from '../store/portable.js';
import type { ApiKeyRecord, FamilyInfo, Scope } from '../store/types.js';
import { NotFound } from '../domain/shared/errors.js';
import { hashSecret, randomBase62 } from './secrets.js';
import { deviceInput, type DeviceInput } from '../domain/family/devices.js';
import {
  keyIdOf,
  makeKey,
  makeSession,
  matchKey,
  matchSession,
  revokeWithSessions,
  sameHash,
  SESSIONS_PER_KEY,
  type NewKey,
} from './keys.js';
import { SCOPES } from './scopes.js';

export const SESSION_DAYS = 30;
export const LINK_MINUTES = 10;
export const PAIRING_MINUTES = 10;
const DAY_MS = 86_400_000;
/** A session's end moves at most this often (each move is a write). */
const SLIDE_EVERY_MS = 3_600_000;

const after = (now: Date, ms: number) => new Date(now.getTime() + ms).toISOString();
const live = (k: ApiKeyRecord, now: Date) =>
  !k.revokedAt && (!k.expiresAt || Date.parse(k.expiresAt) > now.getTime());

/** Setup codes are read off a screen and typed: 8 letters and digits that cannot be confused. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

function newSetupCode(): string {
  let out = '';
  for (const b of randomBytes(16)) {
    if (b >= 248) continue; // 248 = 8 × 31: no modulo bias
    out += CODE_ALPHABET[b % CODE_ALPHABET.length];
    if (out.length === 8) break;
  }
  return out.length === 8 ? `${out.slice(0, 4)}-${out.slice(4)}` : newSetupCode();
}

/** The code as typed: case, spaces and dashes do not matter. */
const normalCode = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** The store as the household's access needs it: families and keys, and whole-family reads. */
export type AccessStore = Pick<
  Directory,
  | 'getFamily'
  | 'getFamilyBySlug'
  | 'listFamilies'
  | 'getKey'
  | 'listKeys'
  | 'putKey'
  | 'transactKeys'
> &
  Pick<WholeFamilies, 'snapshotFamily'>;

export class HouseholdAccess {
  constructor(private readonly store: AccessStore) {}

  /** The family a key belongs to (undefined once it is gone). */
  family(familyId: string): FamilyInfo | undefined {
    return this.store.getFamily(familyId);
  }

  /** The family's export (store/portable.ts), as `household-organizer export` writes it. */
  exportFamily(slug: string, now: Date): FamilyExport {
    return exportFamily(this.store, slug, now);
  }

  // ---- first-run setup -------------------------------------------------------------------

  private setupRecord(familyId: string): ApiKeyRecord | undefined {
    return this.store.listKeys(familyId).find((k) => k.kind === 'setup' && !k.revokedAt);
  }

  /** Whether the family waits for its first-run setup. */
  setupPending(familyId: string): boolean {
    return this.setupRecord(familyId) !== undefined;
  }

  /** The first family awaiting setup, if any (what `/` offers to set up). */
  pendingFamily(): { id: string; slug: string } | undefined {
    return this.store.listFamilies().find((f) => this.setupPending(f.id));
  }

  /**
   * A fresh setup code for a family (at every start while it is not set up: the code printed
   * last is the one that works). Marks a family as awaiting setup when it was not.
   */
  async mintSetupCode(familyId: string, now: Date): Promise<string> {
    const code = newSetupCode();
    const existing = this.setupRecord(familyId);
    const record: ApiKeyRecord = existing
      ? { ...existing, secretHash: hashSecret(normalCode(code)) }
      : {
          ...makeKey(familyId, { name: 'first-run setup', scopes: [], personId: null }, now).record,
          secretHash: hashSecret(normalCode(code)),
          kind: 'setup',
        };
    await this.store.putKey(record);
    return code;
  }

  checkSetupCode(familyId: string, code: string): boolean {
    const record = this.setupRecord(familyId);
    return sameHash(record?.secretHash, normalCode(code)) && record !== undefined;
  }

  /**
   * Spends the setup code and signs its admin in, in one write: the code is checked again inside
   * it, so of concurrent setups with the right code exactly one gets a session (the others null).
   */
  async finishSetup(familyId: string, code: string, now: Date): Promise<NewKey | null> {
    const id = this.setupRecord(familyId)?.id;
    if (!id) return null;
    return this.spend(id, now, (setup) =>
      setup.kind === 'setup' && sameHash(setup.secretHash, normalCode(code))
        ? { familyId, scopes: [...SCOPES], personId: null, name: 'admin (first-run setup)' }
        : null,
    );
  }

  // ---- sign-in -----------------------------------------------------------------------------

  /** A one-time sign-in link's key for a family's admin (`household-organizer open`). */
  async createLink(slug: string, now: Date): Promise<NewKey & { expiresAt: string }> {
    const family = this.store.getFamilyBySlug(slug);
    if (!family) throw new NotFound(`no family with slug "${slug}"`);
    const expiresAt = after(now, LINK_MINUTES * 60_000);
    const made = makeKey(
      family.id,
      { name: 'sign-in link', scopes: [...SCOPES], personId: null },
      now,
    );
    made.record.kind = 'link';
    made.record.expiresAt = expiresAt;
    await this.store.putKey(made.record);
    return { ...made, expiresAt };
  }

  /**
   * Spends a sign-in link (once, within its 10 minutes) for a new admin session: the link is
   * revoked and the session made in the same write, so concurrent uses give one session.
   */
  async redeemLink(presented: string, now: Date): Promise<NewKey | null> {
    const id = keyIdOf(presented);
    if (!id || !/^hk_/.test(presented)) return null;
    return this.spend(id, now, (link) =>
      link.kind === 'link' && matchKey({ getKey: () => link }, presented) && live(link, now)
        ? { ...link, name: 'browser (sign-in link)' }
        : null,
    );
  }

  /** Revokes a one-time record and makes the session it opens, if `check` says so, in one write. */
  private spend(
    id: string,
    now: Date,
    check: (
      current: ApiKeyRecord,
    ) => { familyId: string; scopes: Scope[]; personId: string | null; name: string } | null,
  ): Promise<NewKey | null> {
    return this.store.transactKeys((read) => {
      const current = read(id);
      const opens = current && !current.revokedAt ? check(current) : null;
      if (!current || !opens) return { writes: [], result: null };
      const made = makeSession(
        opens.familyId,
        { ...opens, derivedFrom: null },
        now,
        after(now, SESSION_DAYS * DAY_MS),
      );
      return {
        writes: [{ ...current, revokedAt: now.toISOString() }, made.record],
        result: made,
      };
    });
  }

  /**
   * A session with the scopes and person of the API key or device typed on the sign-in page,
   * derived from it (it ends when the key does). At most SESSIONS_PER_KEY per key: the oldest
   * end, in the same write.
   */
  async signInWithKey(presented: string, now: Date): Promise<NewKey | null> {
    const key = matchKey(this.store, presented);
    if (!key || key.kind === 'link' || key.kind === 'setup' || key.kind === 'session') return null;
    if (!live(key, now)) return null;
    const mine = this.store
      .listKeys(key.familyId)
      .filter((k) => k.derivedFrom === key.id && !k.revokedAt)
      .map((k) => k.id);
    return this.store.transactKeys((read) => {
      const source = read(key.id);
      if (!source || !live(source, now)) return { writes: [], result: null };
      const made = makeSession(
        key.familyId,
        { ...key, name: `browser (key ${key.id})`, derivedFrom: key.id },
        now,
        after(now, SESSION_DAYS * DAY_MS),
      );
      const open = mine
        .map(read)
        .filter((k): k is ApiKeyRecord => !!k && live(k, now))
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
      const ended = open
        .slice(0, Math.max(0, open.length - (SESSIONS_PER_KEY - 1)))
        .map((k) => ({ ...k, revokedAt: now.toISOString() }));
      return { writes: [...ended, made.record], result: made };
    });
  }

  /**
   * The live session a cookie holds (its source, when it has one, still live), its end moved
   * 30 days on (at most hourly, and never over a revocation written meanwhile), or null.
   */
  async session(cookie: string, now: Date): Promise<ApiKeyRecord | null> {
    const s = matchSession(this.store, cookie);
    if (!s || !live(s, now) || !this.sourceLive(s, now)) return null;
    const end = after(now, SESSION_DAYS * DAY_MS);
    if (Date.parse(end) - Date.parse(s.expiresAt!) < SLIDE_EVERY_MS) return s;
    return this.store.transactKeys((read) => {
      const current = read(s.id);
      if (!current || !live(current, now)) return { writes: [], result: null };
      const slid = { ...current, expiresAt: end };
      return { writes: [slid], result: slid };
    });
  }

  /** Whether a session's source (the key or device it was signed in with) still works. */
  sourceLive(s: ApiKeyRecord, now: Date): boolean {
    if (!s.derivedFrom) return true;
    const source = this.store.getKey(s.derivedFrom);
    return !!source && live(source, now);
  }

  /**
   * Revokes a session, a device or a key of the family (sign-out, the pages' revoke buttons,
   * `DELETE …/devices/{id}`), with the sessions signed in with it, in one write.
   */
  async revoke(familyId: string, keyId: string, now: Date): Promise<ApiKeyRecord> {
    const done = await revokeWithSessions(this.store, familyId, keyId, now);
    if (!done) throw new NotFound(`no key or device "${keyId}"`);
    return done.key;
  }

  /**
   * Revokes the sessions and sign-in links whose end has passed (housekeeping, every ten
   * minutes), so the keys' list says they are over; answers how many.
   */
  async sweep(now: Date): Promise<number> {
    const ended = this.store
      .listKeys()
      .filter((k) => (k.kind === 'session' || k.kind === 'link') && !k.revokedAt && !live(k, now));
    for (const k of ended)
      await this.store.putKey({ ...k, revokedAt: k.expiresAt ?? now.toISOString() });
    return ended.length;
  }

  /** The family's keys, devices and sessions that still work (links and setup codes aside). */
  listAccess(familyId: string, now: Date): ApiKeyRecord[] {
    return (
      this.store
        .listKeys(familyId)
        .filter((k) => live(k, now) && k.kind !== 'link' && k.kind !== 'setup')
        // A session whose source ended meanwhile is over, even before its own record says so.
        .filter((k) => k.kind !== 'session' || this.sourceLive(k, now))
    );
  }

  // ---- devices -----------------------------------------------------------------------------

  async createDevice(
    familyId: string,
    sent: DeviceInput,
    now: Date,
  ): Promise<{ record: ApiKeyRecord; apiKey: string; pairingToken: string; expiresAt: string }> {
    const made = makeKey(familyId, deviceInput(sent), now);
    const secret = randomBase62(32);
    const expiresAt = after(now, PAIRING_MINUTES * 60_000);
    made.record.kind = 'device';
    made.record.pairing = {
      tokenHash: hashSecret(secret),
      sealed: seal(made.apiKey, secret),
      expiresAt,
    };
    await this.store.putKey(made.record);
    return {
      record: made.record,
      apiKey: made.apiKey,
      pairingToken: `${made.record.id}.${secret}`,
      expiresAt,
    };
  }

  listDevices(familyId: string): ApiKeyRecord[] {
    return this.store.listKeys(familyId).filter((k) => k.kind === 'device' && !k.revokedAt);
  }

  /** The device a pairing token names while its link is good (10 minutes, unspent), or null. */
  openPairing(token: string, now: Date): ApiKeyRecord | null {
    const m = PAIRING_TOKEN.exec(token);
    const device = m ? this.store.getKey(m[1]) : undefined;
    return m && device && pairingGood(device, m[2], now) ? device : null;
  }

  /**
   * Spends a pairing link and answers the device's key, in one write: of concurrent uses exactly
   * one gets the key; the others (and every later one) null.
   */
  claimPairing(token: string, now: Date): Promise<{ device: ApiKeyRecord; apiKey: string } | null> {
    const m = PAIRING_TOKEN.exec(token);
    if (!m) return Promise.resolve(null);
    return this.store.transactKeys((read) => {
      const device = read(m[1]);
      if (!device || !pairingGood(device, m[2], now)) return { writes: [], result: null };
      const apiKey = unseal(device.pairing!.sealed, m[2]);
      return { writes: [{ ...device, pairing: null }], result: { device, apiKey } };
    });
  }
}

const PAIRING_TOKEN = /^([0-9A-Za-z]{12})\.([0-9A-Za-z]{32})$/;

function pairingGood(device: ApiKeyRecord, secret: string, now: Date): boolean {
  const p = device.pairing;
  return (
    sameHash(p?.tokenHash, secret) &&
    !!p &&
    !device.revokedAt &&
    Date.parse(p.expiresAt) > now.getTime()
  );
}

// The device's key rests sealed with AES-256-GCM under the SHA-256 of the pairing token's
// secret, which only the link holds: the store alone cannot give the key back.
function seal(text: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', createHash('sha256').update(secret).digest(), iv);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

function unseal(sealed: string, secret: string): string {
  const raw = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv(
    'aes-256-gcm',
    createHash('sha256').update(secret).digest(),
    raw.subarray(0, 12),
  );
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
