/**
 * The Apple profiles a pairing page's Continue prepared (pair.ts): held in this process's memory
 * for PROFILE_MINUTES, for the browser that pressed Continue (a random cookie, of which only its
 * hash is kept), then forgotten. A restart forgets them too: the device asks for a new link.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export const PROFILE_MINUTES = 5;
export const PAIR_COOKIE = 'ho_pair';
/** How many profiles are held at once at most (the oldest go first). */
const MAX_HELD = 1000;

export interface HeldProfile {
  body: string;
  slug: string;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

export class PairingProfiles {
  private readonly held = new Map<string, HeldProfile & { browser: Buffer; expiresAt: number }>();

  constructor(private readonly now: () => number) {}

  hold(token: string, browser: string, p: HeldProfile): void {
    this.sweep();
    if (this.held.size >= MAX_HELD) this.held.delete(this.held.keys().next().value!);
    this.held.set(digest(token).toString('hex'), {
      ...p,
      browser: digest(browser),
      expiresAt: this.now() + PROFILE_MINUTES * 60_000,
    });
  }

  /** The profile of a spent link for the browser holding its cookie, within its minutes. */
  take(token: string, browser: string | undefined): HeldProfile | null {
    this.sweep();
    const h = this.held.get(digest(token).toString('hex'));
    if (!h || !browser || !timingSafeEqual(h.browser, digest(browser))) return null;
    return { body: h.body, slug: h.slug };
  }

  private sweep(): void {
    const now = this.now();
    for (const [k, h] of this.held) if (h.expiresAt <= now) this.held.delete(k);
  }
}
