/**
 * Stream tickets: a browser's EventSource cannot send `x-api-key`, so a page asks for a ticket
 * with its key (`POST …/changes/stream-tickets`) and opens the stream with `?ticket=`. A ticket
 * is good for one minute and one connection; only its SHA-256 is kept, in memory (a restart
 * forgets them, and a page simply asks again).
 */
import { hashSecret, randomBase62 } from '../family/secrets.js';

export const TICKET_TTL_MS = 60_000;
export const TICKET_PATTERN = '^stk_[0-9A-Za-z]{32}$';
const SHAPE = new RegExp(TICKET_PATTERN);
/** Outstanding tickets per key: a page needs one at a time; this only bounds a runaway loop. */
const PER_KEY = 100;

interface Held {
  keyId: string;
  familyId: string;
  expiresAt: number;
}

export class StreamTickets {
  private readonly held = new Map<string, Held>();

  constructor(private readonly now: () => number) {}

  /** A new ticket for the key; the plaintext is returned once. */
  issue(keyId: string, familyId: string): { ticket: string; expiresAt: number } {
    const now = this.now();
    this.sweep(now);
    let mine = 0;
    for (const h of this.held.values()) if (h.keyId === keyId) mine++;
    if (mine >= PER_KEY) {
      // The oldest of this key's tickets goes: a page that lost its tickets must not be locked out.
      for (const [hash, h] of this.held)
        if (h.keyId === keyId) {
          this.held.delete(hash);
          break;
        }
    }
    const ticket = `stk_${randomBase62(32)}`;
    const expiresAt = now + TICKET_TTL_MS;
    this.held.set(hashSecret(ticket), { keyId, familyId, expiresAt });
    return { ticket, expiresAt };
  }

  /** Spends a ticket: its key and family when it is known and fresh, else null. Once only. */
  redeem(presented: string): { keyId: string; familyId: string } | null {
    if (!SHAPE.test(presented)) return null;
    // The map is keyed by the hash: looking it up compares no secret byte by byte.
    const hash = hashSecret(presented);
    const h = this.held.get(hash);
    if (!h) return null;
    this.held.delete(hash);
    return h.expiresAt > this.now() ? { keyId: h.keyId, familyId: h.familyId } : null;
  }

  private sweep(now: number): void {
    for (const [hash, h] of this.held) if (h.expiresAt <= now) this.held.delete(hash);
  }
}
