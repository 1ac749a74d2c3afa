import { expect } from 'chai';
import { fixture } from '../collections/fixture.js';
import { contextIndex } from '../../../src/domain/context/searchIndex.js';
import {
  decideCreateEntries,
  decideDeleteEntries,
  decideUpdateEntries,
} from '../../../src/domain/collections/entries.js';
import { ENTRIES } from '../../../src/domain/collections/types.js';
import type { RecordChange } from '../../../src/domain/shared/state.js';

const titles = (hits: { doc: { title: string } }[]) => hits.map((h) => h.doc.title).sort();

describe('the context search index', () => {
  it('is built once and then follows writes change by change', () => {
    const f = fixture();
    const made = f.run((s, c) =>
      decideCreateEntries(s, 'chores', [{ title: 'Feed the cat' }, { title: 'Feed the fish' }], c),
    ).result;
    const index = contextIndex(f.state);
    expect(index.builds).to.equal(1);
    expect(titles(index.search('feed'))).to.deep.equal(['Feed the cat', 'Feed the fish']);
    f.run((s, c) =>
      decideUpdateEntries(s, 'chores', [{ entryId: made[0].id, title: 'Feed the dog' }], c),
    );
    f.run((s, c) => decideDeleteEntries(s, 'chores', [made[1].id], c));
    f.run((s, c) => decideCreateEntries(s, 'chores', [{ title: 'Feed the birds' }], c));
    expect(contextIndex(f.state)).to.equal(index);
    expect(titles(index.search('feed'))).to.deep.equal(['Feed the birds', 'Feed the dog']);
    expect(index.search('cat')).to.deep.equal([]);
    expect(index.builds).to.equal(1);
    expect(index.version).to.equal(f.state.version);
  });

  it("is built again when the state's journal no longer reaches back, and then matches the tables", () => {
    const f = fixture();
    const index = contextIndex(f.state);
    // An import-sized change is not journaled.
    const many: RecordChange[] = Array.from({ length: 3_000 }, (_, i) => ({
      table: ENTRIES,
      id: `ent_${String(i).padStart(20, '0')}`,
      value: {
        id: `ent_${String(i).padStart(20, '0')}`,
        collectionKey: 'groceries',
        title: `Item ${i}`,
        status: 'active',
        data: {},
        createdAt: '2026-11-22T08:30:00.000Z',
        updatedAt: '2026-11-22T08:30:00.000Z',
      },
    }));
    f.state.apply(many);
    expect(f.state.changesSince(index.version)).to.equal(null);
    expect(index.search('item')).to.have.length(0); // not synced yet: searches go through contextIndex
    expect(
      contextIndex(f.state)
        .search('item 2999')
        .map((h) => h.doc.title),
    ).to.include('Item 2999');
    expect(index.builds).to.equal(2);
    // A reload after a failed commit forgets the journal too.
    f.state.reset();
    expect(contextIndex(f.state).search('item')).to.deep.equal([]);
    expect(index.builds).to.equal(3);
  });

  it('keeps the last 2,048 changes in the journal and no more', () => {
    const f = fixture();
    const v = f.state.version;
    const one = (i: number): RecordChange => ({ table: 'other', id: String(i), value: { i } });
    for (let i = 0; i < 2_048; i++) f.state.apply([one(i)]);
    expect(f.state.changesSince(v)).to.have.length(2_048);
    f.state.apply([one(2_048)]);
    expect(f.state.changesSince(v)).to.equal(null);
    expect(f.state.changesSince(v + 1)).to.have.length(2_048);
  });
});
