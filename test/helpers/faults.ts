/**
 * Pieces of the seeded fault run (test/cluster/faults.e2e.test.ts): a small seeded random
 * source, so that a run's choices — which node, which fault, how long — follow from its seed,
 * and a tally of what happened.
 */

export interface Random {
  /** In [0, 1). */
  next(): number;
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number;
  /** A number in [lo, hi). */
  between(lo: number, hi: number): number;
  pick<T>(xs: readonly T[]): T;
}

/** mulberry32: 32 bits of state, good enough to spread choices, and the same for a seed. */
export function seeded(seed: number): Random {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    between: (lo, hi) => lo + next() * (hi - lo),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
  };
}

/** Counts by label, printed in a stable order. */
export class Tally {
  private readonly counts = new Map<string, number>();

  add(label: string, n = 1): void {
    this.counts.set(label, (this.counts.get(label) ?? 0) + n);
  }

  get(label: string): number {
    return this.counts.get(label) ?? 0;
  }

  toString(): string {
    return [...this.counts.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits while `busy()` holds, looking every 50 ms. */
export async function waitWhile(busy: () => boolean): Promise<void> {
  while (busy()) await sleep(50);
}
