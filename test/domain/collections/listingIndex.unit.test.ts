import { expect } from 'chai';
import { FamilyState } from '../../../src/domain/shared/state.js';
import { entriesOf } from '../../../src/domain/collections/listing.js';
import { ENTRIES, type Entry } from '../../../src/domain/collections/types.js';

/** The index as a full rebuild gives it: every collection's entries, newest first. */
function rebuilt(state: FamilyState, key: string): string[] {
  return Array.from(state.table<Entry>(ENTRIES).values())
    .filter((e) => e.collectionKey === key)
    .sort((a, b) =>
      a.createdAt !== b.createdAt
        ? a.createdAt > b.createdAt
          ? -1
          : 1
        : a.id > b.id
          ? -1
          : a.id < b.id
            ? 1
            : 0,
    )
    .map((e) => e.id);
}

function entry(id: string, collectionKey: string, createdAt: string, title = id): Entry {
  return { id, collectionKey, title, status: 'active', data: {}, createdAt, updatedAt: createdAt };
}

describe('the entries index follows writes (domain)', () => {
  it('matches a rebuild after thousands of random creates, updates, moves and deletes', () => {
    const state = new FamilyState({
      id: 'fam_1',
      slug: 'home',
      name: 'Home',
      timezone: 'UTC',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const keys = ['chores', 'meals', 'cal'];
    const ids: string[] = [];
    for (let step = 0; step < 1500; step++) {
      const op = rnd(10);
      // Same-second timestamps on purpose: the id breaks the tie.
      const at = `2026-01-01T00:${String(rnd(60)).padStart(2, '0')}:00.000Z`;
      if (op < 6 || ids.length === 0) {
        const id = `e${String(step).padStart(5, '0')}`;
        ids.push(id);
        state.apply([{ table: ENTRIES, id, value: entry(id, keys[rnd(3)], at) }]);
      } else if (op < 8) {
        const id = ids[rnd(ids.length)];
        const old = state.get<Entry>(ENTRIES, id)!;
        state.apply([{ table: ENTRIES, id, value: { ...old, title: `t${step}` } }]);
      } else if (op < 9) {
        // An entry that changes collection or creation time (imports can do this).
        const id = ids[rnd(ids.length)];
        const old = state.get<Entry>(ENTRIES, id)!;
        state.apply([
          {
            table: ENTRIES,
            id,
            value: rnd(2) ? { ...old, collectionKey: keys[rnd(3)] } : { ...old, createdAt: at },
          },
        ]);
      } else {
        const id = ids.splice(rnd(ids.length), 1)[0];
        state.apply([{ table: ENTRIES, id, value: null }]);
      }
      if (step % 11 === 0 || step > 1490) {
        for (const k of keys) {
          const got = entriesOf(state, k);
          expect(
            got.map((e) => e.id),
            `step ${step}, ${k}`,
          ).to.deep.equal(rebuilt(state, k));
          // The index holds the current record, not an earlier version of it.
          for (const e of got) expect(e).to.equal(state.get(ENTRIES, e.id));
        }
      }
    }
  });

  it('keeps the same index object across writes it can follow (no rebuild per write)', () => {
    const state = new FamilyState({
      id: 'fam_1',
      slug: 'home',
      name: 'Home',
      timezone: 'UTC',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    state.apply([
      { table: ENTRIES, id: 'e1', value: entry('e1', 'chores', '2026-01-01T00:00:00.000Z') },
    ]);
    const first = entriesOf(state, 'chores');
    state.apply([
      { table: ENTRIES, id: 'e2', value: entry('e2', 'chores', '2026-01-01T00:00:01.000Z') },
    ]);
    state.apply([{ table: 'people', id: 'p1', value: { id: 'p1' } }]);
    const second = entriesOf(state, 'chores');
    expect(second).to.equal(first);
    expect(second.map((e) => e.id)).to.deep.equal(['e2', 'e1']);
    state.apply([{ table: ENTRIES, id: 'e1', value: null }]);
    expect(entriesOf(state, 'chores').map((e) => e.id)).to.deep.equal(['e2']);
  });
});
