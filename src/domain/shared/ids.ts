/**
 * Identifiers: a prefix plus 20 characters of lower-case Crockford base32 — 10 for the
 * millisecond time (sortable until the year 10889) and 10 random, incremented within the same
 * millisecond so ids made by one generator sort in creation order (ULID-like; docs/api.md).
 */
export const ID_PREFIXES = [
  'ent', 'person', 'trg', 'whd', 'share', 'plan', 'note', 'poll', 'option', 'src', 'ntf', 'dlv', 'event', 'fam',
] as const;
export type IdPrefix = typeof ID_PREFIXES[number];

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

export type IdGenerator = (prefix: IdPrefix) => string;

function encode(value: bigint, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = ALPHABET[Number(value & 31n)]! + out;
    value >>= 5n;
  }
  return out;
}

/**
 * Makes an id generator. `now` and `random` are injected so tests and pure code can make
 * repeatable ids; production passes Date.now and crypto.
 */
export function createIdGenerator(now: () => number, randomBytes: (n: number) => Uint8Array): IdGenerator {
  let lastTime = -1;
  let lastRandom = 0n;
  const max = (1n << 50n) - 1n;
  return (prefix) => {
    const t = now();
    if (t <= lastTime) {
      lastRandom = lastRandom === max ? 0n : lastRandom + 1n;
    } else {
      lastTime = t;
      const bytes = randomBytes(7);
      let r = 0n;
      for (const b of bytes) r = (r << 8n) | BigInt(b);
      // Keep the top bit clear so increments within a millisecond do not overflow.
      lastRandom = r & ((1n << 49n) - 1n);
    }
    return `${prefix}_${encode(BigInt(Math.max(lastTime, t)), 10)}${encode(lastRandom, 10)}`;
  };
}

export function hasPrefix(id: unknown, prefix: IdPrefix): id is string {
  return typeof id === 'string' && id.startsWith(`${prefix}_`) && id.length === prefix.length + 21;
}
