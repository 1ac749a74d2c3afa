/**
 * One page of the event listing (listing.ts) being filled, its cursor, and the budget that
 * refuses a window rather than answer a short page.
 */
import { Invalid } from '../shared/errors.js';
import type { EventView } from './events.js';
import type { Key } from './listingItems.js';

export interface EventPage {
  events: EventView[];
  nextCursor?: string;
}

// ---- cursor ---------------------------------------------------------------------------------

export function encodeCursor(k: Key): string {
  return Buffer.from(JSON.stringify(k), 'utf8').toString('base64url');
}

export function decodeCursor(s: string): Key {
  try {
    const k = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as unknown;
    if (
      Array.isArray(k) &&
      k.length === 6 &&
      typeof k[1] === 'number' &&
      k.every((v, i) => i === 1 || typeof v === 'string')
    )
      return k as Key;
  } catch {
    /* answered below */
  }
  throw Invalid.at(['query', 'cursor'], 'is not a cursor this list gave out');
}

export interface Computed {
  page: EventPage;
  validUntil: number;
}

/**
 * Events and occurrences one page looks at, at most. The filter's status and words are applied
 * to a series before its occurrences are expanded (its changed occurrences each on its own), so
 * what a page looks at is what matches, the changed occurrences that do not, and with
 * excludeEnded those of the last two days that have ended: a page of 50 looks at a few hundred.
 * Past this the window is refused (an `invalid` naming it), never answered with a short page
 * that would read as the end of the list. About 10–20 ms of work on a busy two-core machine
 * (docs/performance.md).
 */
export const SCAN_BUDGET = 10_000;

/** Where a listing looks: the window, when there is one. */
export interface Scope {
  from?: string;
  to?: string;
}

function tooMuch(scope: Scope): Invalid {
  const window =
    scope.from && scope.to
      ? `from ${scope.from} to ${scope.to}`
      : scope.from
        ? `from ${scope.from}`
        : scope.to
          ? `up to ${scope.to}`
          : 'of the whole calendar';
  return new Invalid(
    `The window ${window} needs more than ${SCAN_BUDGET} events and occurrences looked at for one page; ask for a shorter window`,
    [
      {
        path: ['query', scope.to ? 'to' : 'from'],
        message: `makes a window (${window}) that needs more than ${SCAN_BUDGET} events and occurrences looked at for one page`,
      },
    ],
  );
}

/**
 * A page being filled: candidates in key order are offered one by one; those that pass are
 * kept up to `limit`. Looking at more than SCAN_BUDGET of them refuses the window. The next
 * page starts after the last one listed.
 */
export class PageFill<T> {
  private readonly out: { item: T; key: Key }[] = [];
  private validUntil = Infinity;
  private resume: Key | undefined;
  private examined = 0;

  constructor(
    private readonly limit: number,
    private readonly scope: Scope,
  ) {}

  /** Looks at one candidate; false when the page is full. */
  offer(item: T, key: Key, check: () => { ok: boolean; end?: number }): boolean {
    if (++this.examined > SCAN_BUDGET) throw tooMuch(this.scope);
    const r = check();
    if (r.ok && this.out.length === this.limit) {
      this.resume = this.out[this.out.length - 1].key;
      return false;
    }
    if (!r.ok) return true;
    if (r.end !== undefined) this.validUntil = Math.min(this.validUntil, r.end);
    this.out.push({ item, key });
    return true;
  }

  page(view: (item: T) => EventView): Computed {
    return {
      page: {
        events: this.out.map((o) => view(o.item)),
        ...(this.resume ? { nextCursor: encodeCursor(this.resume) } : {}),
      },
      validUntil: this.validUntil,
    };
  }
}
