/**
 * Standard Webhooks signing: secrets are `whsec_` + base64 of 24 random bytes; a signature is
 * `v1,` + base64 of HMAC-SHA256, keyed by the secret's bytes, over `<id>.<timestamp>.<body>`.
 * Several signatures (the new and, for 24 h after a rotation, the old secret) go in one header,
 * separated by spaces; a receiver accepts the message when any of them verifies.
 */
import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

const PREFIX = 'whsec_';

export function newSigningSecret(): string {
  return PREFIX + randomBytes(24).toString('base64');
}

/**
 * The keys of the secrets in use (a handful per destination), decoded once and held as key
 * objects, so a send neither decodes its secret again nor copies the key into a new HMAC.
 */
const keys = new Map<string, KeyObject>();
const MAX_KEYS = 1_000;

function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= MAX_KEYS) keys.clear();
    key = createSecretKey(
      Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64'),
    );
    keys.set(secret, key);
  }
  return key;
}

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = keyOf(secret);
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The headers of one attempt: `timestamp` is the attempt's time in whole seconds. */
export function deliveryHeaders(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => sign(s, id, timestamp, body)).join(' '),
  };
}
