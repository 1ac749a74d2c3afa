/**
 * Kept answers of idempotent requests, sealed so that a copy of the store (a backup, a stolen
 * disk) cannot read them or even tell which request they answer: an answer may carry a
 * credential shown once (a share token, a webhook's signing secret, whatever later endpoints
 * add) and is kept 24 h. Every kept answer is sealed, whatever it carries, so a new endpoint
 * is covered without knowing it shows a credential.
 *
 * Two keys are derived with HKDF-SHA256 from the secret part of the API key that made the
 * request (which the store holds only as a hash) and the request's Idempotency-Key:
 * - an AES-256-GCM key that seals the answer (random 96-bit nonce; the record's place and
 *   status are bound as associated data, so a sealed body cannot be moved to another record);
 * - an HMAC key for the request's fingerprint (method, path, body), so the fingerprint tests
 *   no guess of what was sent.
 * The record is stored under the SHA-256 of the Idempotency-Key, never the key itself. Only a
 * caller presenting the same API key and the same Idempotency-Key can find, match and open it.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
} from 'node:crypto';

const SALT = 'household-organizer idempotent answer v1';
const SEALED_PREFIX = 'v1.';

export interface ReplayKeys {
  /** Where the record is kept: hex SHA-256 of the Idempotency-Key. */
  slot: string;
  seal: Buffer;
  mac: Buffer;
}

/** The keys for one (API key secret, Idempotency-Key) pair. */
export function replayKeys(apiSecret: string, keyId: string, idemKey: string): ReplayKeys {
  const info = `${keyId}\n${idemKey}`;
  const okm = Buffer.from(hkdfSync('sha256', apiSecret, SALT, info, 64));
  return {
    slot: createHash('sha256').update(idemKey).digest('hex'),
    seal: okm.subarray(0, 32),
    mac: okm.subarray(32),
  };
}

/** The request's fingerprint under the caller's MAC key (hex). */
export function fingerprintOf(
  keys: ReplayKeys,
  method: string,
  path: string,
  rawBody: string,
): string {
  return createHmac('sha256', keys.mac).update(`${method} ${path}\n${rawBody}`).digest('hex');
}

function associated(keys: ReplayKeys, status: number): Buffer {
  return Buffer.from(`${keys.slot}\n${status}`);
}

/** Seals an answer's JSON text: `v1.` + base64 of nonce ‖ tag ‖ ciphertext. */
export function sealAnswer(keys: ReplayKeys, status: number, json: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys.seal, nonce);
  cipher.setAAD(associated(keys, status));
  const body = Buffer.concat([cipher.update(json, 'utf8'), cipher.final()]);
  return SEALED_PREFIX + Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64');
}

/** Opens a sealed answer; null when it does not open with these keys (never expected). */
export function openAnswer(keys: ReplayKeys, status: number, sealed: string): unknown {
  if (!sealed.startsWith(SEALED_PREFIX)) return null;
  const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64');
  if (raw.length < 28) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keys.seal, raw.subarray(0, 12));
    decipher.setAAD(associated(keys, status));
    decipher.setAuthTag(raw.subarray(12, 28));
    const json = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
    return JSON.parse(json.toString('utf8')) as unknown;
  } catch {
    return null;
  }
}
