/**
 * Data for the benchmark: families and keys written with the daemon's own `createFamily`
 * before it starts, chores entries posted through the real API, and (for the memory case)
 * thousands of entries written straight through the store's API (`Store.createFamily` via
 * `createFamily`, then `Store.commit`), which is what the actor would have committed minus the
 * change log (the log is never loaded into memory, so it does not change the memory figures).
 */
import { randomBytes } from 'node:crypto';
import { Store } from '../src/store/store.js';
import { createFamily } from '../src/family/admin.js';
import { createIdGenerator } from '../src/domain/shared/ids.js';
import { ENTRIES, type Entry } from '../src/domain/collections/types.js';
import type { RecordChange } from '../src/domain/shared/state.js';

export interface BenchFamily {
  slug: string;
  apiKey: string;
  keyId: string;
  secretHash: string;
}

const CHORES = [
  'Empty the dishwasher',
  'Water the plants',
  'Take out the recycling',
  'Vacuum the living room',
  'Clean the bathroom sink',
  'Fold the laundry',
  'Feed the cat',
  'Wipe the kitchen counters',
  'Change the bed sheets',
  'Mop the hallway',
  'Sort the mail',
  'Dust the bookshelves',
  'Clean the fridge',
  'Sweep the porch',
  'Wash the car',
  'Descale the kettle',
  'Tidy the garage',
  'Iron the shirts',
  'Clean the windows',
  'Walk the dog',
  'Scrub the bathtub',
  'Defrost the freezer',
  'Crème brûlée dishes',
  'Rake the leaves',
  'Replace the smoke alarm battery',
];
const NOTES = [
  'Use the blue bucket',
  'Ask Zoë first',
  'Spare bags under the sink',
  'Only on dry days',
  'The good cloth is in the drawer',
  'Takes about ten minutes',
  '',
];
const REPEATS = ['once', 'daily', 'weekly', 'monthly'];

/** The query of the "GET entries with a query" case: it matches one title in 25. */
export const QUERY = 'plants';

/** A chores entry's `{title, data}` (deterministic for a given i). */
export function chore(i: number): { title: string; data: Record<string, unknown> } {
  const notes = NOTES[i % NOTES.length];
  const day = 1 + (i % 28);
  const month = 1 + (i % 12);
  return {
    title: `${CHORES[i % CHORES.length]} #${i}`,
    data: {
      due: `2026-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      repeats: REPEATS[i % REPEATS.length],
      ...(notes ? { notes } : {}),
    },
  };
}

function splitKey(apiKey: string): { keyId: string; secret: string } {
  const m = /^hk_([0-9A-Za-z]{12})_([0-9A-Za-z]{32})$/.exec(apiKey);
  if (!m) throw new Error(`unexpected key format ${apiKey}`);
  return { keyId: m[1], secret: m[2] };
}

/** Creates families with an admin key each, in an (unopened or closed) store folder. */
export async function createFamilies(dataDir: string, slugs: string[]): Promise<BenchFamily[]> {
  const store = Store.open(dataDir);
  try {
    const newId = createIdGenerator(
      () => Date.now(),
      (n) => randomBytes(n),
    );
    const out: BenchFamily[] = [];
    for (const slug of slugs) {
      const made = await createFamily(
        store,
        { slug, name: slug },
        { now: new Date(), newId, defaultTimezone: 'UTC', withKey: 'bench' },
      );
      out.push({
        slug,
        apiKey: made.apiKey!,
        keyId: splitKey(made.apiKey!).keyId,
        secretHash: made.key!.secretHash,
      });
    }
    return out;
  } finally {
    await store.close();
  }
}

/** Posts `count` chores entries through the batch endpoint (50 a request, a few in flight). */
export async function postChores(
  baseUrl: string,
  family: BenchFamily,
  count: number,
): Promise<void> {
  const url = `${baseUrl}/api/v1/families/${family.slug}/trackers/chores/entries/batch`;
  const batches: number[] = [];
  for (let i = 0; i < count; i += 50) batches.push(i);
  const worker = async () => {
    for (let start = batches.shift(); start !== undefined; start = batches.shift()) {
      const items = Array.from({ length: Math.min(50, count - start) }, (_, j) => chore(start + j));
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': family.apiKey },
        body: JSON.stringify({ items }),
      });
      if (res.status !== 201)
        throw new Error(
          `seeding ${family.slug}: POST batch answered ${res.status}: ${await res.text()}`,
        );
      await res.arrayBuffer().catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}

/**
 * The memory case's data: `families` families (`mem-0000`…) with `perFamily` chores entries
 * each, written through the store's API before the daemon starts. Returns the families' keys.
 */
export async function seedDirect(
  dataDir: string,
  families: number,
  perFamily: number,
  log: (s: string) => void,
): Promise<BenchFamily[]> {
  const store = Store.open(dataDir);
  const out: BenchFamily[] = [];
  try {
    let t = Date.parse('2025-01-01T00:00:00Z');
    const newId = createIdGenerator(
      () => t,
      (n) => randomBytes(n),
    );
    const started = Date.now();
    for (let f = 0; f < families; f++) {
      const slug = `mem-${String(f).padStart(4, '0')}`;
      const made = await createFamily(
        store,
        { slug, name: slug },
        { now: new Date(t), newId, defaultTimezone: 'UTC', withKey: 'bench' },
      );
      out.push({
        slug,
        apiKey: made.apiKey!,
        keyId: splitKey(made.apiKey!).keyId,
        secretHash: made.key!.secretHash,
      });
      const changes: RecordChange[] = [];
      for (let i = 0; i < perFamily; i++) {
        t += 1_000;
        const at = new Date(t).toISOString();
        const { title, data } = chore(f * perFamily + i);
        const e: Entry = {
          id: newId('ent'),
          collectionKey: 'chores',
          title,
          status: 'active',
          data,
          createdAt: at,
          updatedAt: at,
        };
        changes.push({ table: ENTRIES, id: e.id, value: e });
      }
      // Up to 2,000 records a transaction; the commits of consecutive families overlap.
      const commits: Promise<void>[] = [];
      for (let i = 0; i < changes.length; i += 2_000)
        commits.push(store.commit(made.family.id, { records: changes.slice(i, i + 2_000) }));
      await Promise.all(commits);
      if ((f + 1) % 100 === 0)
        log(
          `  seeded ${f + 1}/${families} families (${((Date.now() - started) / 1000).toFixed(0)} s)`,
        );
    }
    return out;
  } finally {
    await store.close();
  }
}
