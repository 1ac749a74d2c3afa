/**
 * The share token formats, each made and read here only: a calendar share's `shr_…` (its
 * public ICS feed), a plan's `pln_…` (its public page) and a family display's `dsp_…` (its
 * wall page). A token is the prefix and 32 base62 characters (190 bits); only its SHA-256 is
 * stored, indexed store-wide to find the family.
 * A presented token that is not of the shape has no hash: it is answered as unknown.
 */
import { hashSecret, randomBase62 } from './secrets.js';

const LENGTH = 32;

export interface ShareTokenFormat {
  /** The shape as a JSON Schema / RegExp pattern. */
  readonly pattern: string;
  /** A new token and the hash that is all the store keeps of it. */
  make(): { token: string; tokenHash: string };
  /** The hash of a presented token, or null when it is not of this format. */
  hashOf(presented: string): string | null;
}

function shareTokenFormat(prefix: string): ShareTokenFormat {
  const pattern = `^${prefix}[0-9A-Za-z]{${LENGTH}}$`;
  const shape = new RegExp(pattern);
  return {
    pattern,
    make() {
      const token = `${prefix}${randomBase62(LENGTH)}`;
      return { token, tokenHash: hashSecret(token) };
    },
    hashOf(presented) {
      return shape.test(presented) ? hashSecret(presented) : null;
    },
  };
}

export const calendarShareToken = shareTokenFormat('shr_');
export const planShareToken = shareTokenFormat('pln_');
export const displayToken = shareTokenFormat('dsp_');
