/**
 * Stable ids of feed events: derived from the feed (`src_…`) and the event's identity in the
 * feed (UID and normalized RECURRENCE-ID), so a refresh finds the same record again and plan
 * links, overlays and reminders stay attached. Same shape as every other entry id
 * (`ent_` + 20 lower-case Crockford base32 characters), though not time-sortable.
 */
import { createHash } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

export function feedEventId(sourceId: string, key: string): string {
  const bytes = createHash('sha256').update(`${sourceId}\n${key}`).digest();
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5 && out.length < 20) {
      out += ALPHABET[(acc >> (bits - 5)) & 31];
      bits -= 5;
    }
    acc &= (1 << bits) - 1;
    if (out.length === 20) break;
  }
  return `ent_${out}`;
}
