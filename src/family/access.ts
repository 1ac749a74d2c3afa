/**
 * Who may open the household pages, and the devices an admin adds there (docs/pages.md). Every
 * one of these is a key record of the family (store keys: listed, revoked and replicated like
 * any key), told apart by its `kind`:
 *
 * - `setup`: a family never set up. Its secret is the setup code printed at each start until
 *   the setup page has been sent with it; then it is revoked, and the family counts as set up.
 * - `link`: a one-time sign-in link (`household-organizer open <slug>`), 10 minutes, one use.
 * - `session`: a signed-in browser. The `ho_session` cookie is the key itself (so the pages act
 *   through REST with it, under its scopes); 30 days, sliding; sign-out revokes it.
 * - `device`: an API key with a name and a person, and for 10 minutes a pairing link whose token
 *   unseals the key for the phone's setup page (spent when the Apple profile is downloaded).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Directory, WholeFamilies } from '../store/ports.js';
import { exportFamily, type FamilyExport } from '../store/portable.js';
import type { ApiKeyRecord, FamilyInfo, Scope } from '../store/types.js';
import { Invalid, NotFound } from '../domain/shared/errors.js';
import { hashSecret, randomBase62 } from './secrets.js';
import { makeKey, matchKey, sameHash, type NewKey } from './keys.js';
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
  'getFamily' | 'getFamilyBySlug' | 'listFamilies' | 'getKey' | 'listKeys' | 'putKey'
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

  /** Ends the setup (the code stops working) and signs its admin in. */
  async finishSetup(familyId: string, now: Date): Promise<NewKey> {
    const record = this.setupRecord(familyId);
    if (!record) throw new NotFound('This family is already set up');
    await this.store.putKey({ ...record, revokedAt: now.toISOString() });
    return this.newSession(familyId, [...SCOPES], null, now, 'admin (first-run setup)');
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

  /** Spends a sign-in link (once, within its 10 minutes) for a new admin session. */
  async redeemLink(presented: string, now: Date): Promise<NewKey | null> {
    const link = matchKey(this.store, presented);
    if (!link || link.kind !== 'link' || !live(link, now)) return null;
    await this.store.putKey({ ...link, revokedAt: now.toISOString() });
    return this.newSession(
      link.familyId,
      link.scopes,
      link.personId,
      now,
      'browser (sign-in link)',
    );
  }

  /** A session with the scopes and person of the API key typed on the sign-in page. */
  async signInWithKey(presented: string, now: Date): Promise<NewKey | null> {
    const key = matchKey(this.store, presented);
    if (!key || key.kind === 'link' || key.kind === 'setup' || !live(key, now)) return null;
    return this.newSession(key.familyId, key.scopes, key.personId, now, `browser (key ${key.id})`);
  }

  private async newSession(
    familyId: string,
    scopes: Scope[],
    personId: string | null,
    now: Date,
    name: string,
  ): Promise<NewKey> {
    const made = makeKey(familyId, { name, scopes, personId }, now);
    made.record.kind = 'session';
    made.record.expiresAt = after(now, SESSION_DAYS * DAY_MS);
    await this.store.putKey(made.record);
    return made;
  }

  /** The live session a cookie holds, its end moved 30 days on (at most hourly), or null. */
  async session(cookie: string, now: Date): Promise<ApiKeyRecord | null> {
    const s = matchKey(this.store, cookie);
    if (!s || s.kind !== 'session' || !live(s, now)) return null;
    const end = after(now, SESSION_DAYS * DAY_MS);
    if (Date.parse(end) - Date.parse(s.expiresAt!) < SLIDE_EVERY_MS) return s;
    const slid = { ...s, expiresAt: end };
    await this.store.putKey(slid);
    return slid;
  }

  /** Revokes a session, a device or a key of the family (sign-out, the pages' revoke buttons). */
  async revoke(familyId: string, keyId: string, now: Date): Promise<ApiKeyRecord> {
    const key = this.store.getKey(keyId);
    if (!key || key.familyId !== familyId) throw new NotFound(`no key or device "${keyId}"`);
    if (key.revokedAt) return key;
    const revoked = { ...key, revokedAt: now.toISOString(), pairing: null };
    await this.store.putKey(revoked);
    return revoked;
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
    return this.store
      .listKeys(familyId)
      .filter((k) => live(k, now) && k.kind !== 'link' && k.kind !== 'setup');
  }

  // ---- devices -----------------------------------------------------------------------------

  async createDevice(
    familyId: string,
    input: { personId: string | null; name: string; scopes: Scope[] },
    now: Date,
  ): Promise<{ record: ApiKeyRecord; apiKey: string; pairingToken: string; expiresAt: string }> {
    const name = input.name.trim();
    if (!name) throw Invalid.at(['name'], 'must not be empty');
    const made = makeKey(familyId, { ...input, name }, now);
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

  /** The device and its key a pairing token opens (within its 10 minutes, until spent). */
  openPairing(token: string, now: Date): { device: ApiKeyRecord; apiKey: string } | null {
    const m = /^([0-9A-Za-z]{12})\.([0-9A-Za-z]{32})$/.exec(token);
    if (!m) return null;
    const device = this.store.getKey(m[1]);
    const p = device?.pairing;
    if (!sameHash(p?.tokenHash, m[2]) || !device || !p || device.revokedAt) return null;
    if (Date.parse(p.expiresAt) <= now.getTime()) return null;
    return { device, apiKey: unseal(p.sealed, m[2]) };
  }

  /** Spends a pairing link: its pages answer 404 from now on. */
  async spendPairing(device: ApiKeyRecord): Promise<void> {
    const current = this.store.getKey(device.id);
    if (current?.pairing) await this.store.putKey({ ...current, pairing: null });
  }
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
