/**
 * Identifiers: a prefix plus 20 characters of lower-case Crockford base32 — 10 for the
 * millisecond time (sortable until the year 10889) and 10 random. Within the same millisecond
 * the random part grows by a random step (1 to 2^20), not by one: ids made by one generator
 * still sort in creation order (ULID-like; docs/api.md), but an id shown (on a family display,
 * a public page) does not give away its neighbours.
 */
export const ID_PREFIXES = [
  'ent',
  'person',
  'trg',
  'whd',
  'share',
  'plan',
  'note',
  'poll',
  'option',
  'src',
  'ntf',
  'dlv',
  'event',
  'fam',
  'grant',
  'display',
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

export type IdGenerator = (prefix: IdPrefix) => string;

/** `length` base32 characters of `value` (an integer below 2^53), most significant first. */
function encode(value: number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = ALPHABET[value % 32] + out;
    value = Math.floor(value / 32);
  }
  return out;
}

/** 2^25: the random part is held as two 25-bit halves (plain numbers: ids are made per write). */
const HALF = 33_554_432;

/**
 * Makes an id generator. `now` and `random` are injected so tests and pure code can make
 * repeatable ids; production passes Date.now and crypto (through `pooledRandom`).
 */
export function createIdGenerator(
  now: () => number,
  randomBytes: (n: number) => Uint8Array,
): IdGenerator {
  let lastTime = -1;
  // The 50-bit random part as hi * 2^25 + lo.
  let hi = 0;
  let lo = 0;
  return (prefix) => {
    const t = now();
    if (t <= lastTime) {
      const b = randomBytes(3);
      lo += 1 + (((b[0] & 0x0f) << 16) | (b[1] << 8) | b[2]);
      if (lo >= HALF) {
        lo -= HALF;
        if (++hi === HALF) hi = 0;
      }
    } else {
      lastTime = t;
      const b = randomBytes(7);
      // The low 49 bits of the 7 bytes (the top bit stays clear, so increments within a
      // millisecond do not overflow).
      hi = ((b[0] & 1) << 23) | (b[1] << 15) | (b[2] << 7) | (b[3] >> 1);
      lo = ((b[3] & 1) << 24) | (b[4] << 16) | (b[5] << 8) | b[6];
    }
    return `${prefix}_${encode(Math.max(lastTime, t), 10)}${encode(hi, 5)}${encode(lo, 5)}`;
  };
}

/**
 * Random bytes handed out from a buffer refilled `size` bytes at a time: one call into the
 * system's generator per ~100 ids instead of one per id. `fill` is crypto's randomFillSync.
 */
export function pooledRandom(
  fill: (buffer: Uint8Array) => void,
  size = 1024,
): (n: number) => Uint8Array {
  const pool = new Uint8Array(size);
  let at = size;
  return (n) => {
    if (n > size) {
      const out = new Uint8Array(n);
      fill(out);
      return out;
    }
    if (at + n > size) {
      fill(pool);
      at = 0;
    }
    // A copy: the caller may keep it, and the pool is overwritten on its next refill.
    const out = pool.slice(at, at + n);
    at += n;
    return out;
  };
}

export function hasPrefix(id: unknown, prefix: IdPrefix): id is string {
  return typeof id === 'string' && id.startsWith(`${prefix}_`) && id.length === prefix.length + 21;
}
