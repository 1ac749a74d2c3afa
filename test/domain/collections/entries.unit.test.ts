import { expect } from 'chai';
import {
  decideCreateEntries,
  decideDeleteEntries,
  decideUpdateEntries,
  SINGLE,
} from '../../../src/domain/collections/entries.js';
import { decideCreateCollection } from '../../../src/domain/collections/collections.js';
import { entriesOf, listEntries } from '../../../src/domain/collections/listing.js';
import { getCollection } from '../../../src/domain/collections/collections.js';
import { decideCreatePerson, decideDeletePerson } from '../../../src/domain/people/people.js';
import {
  Conflict,
  Invalid,
  NotFound,
  type DomainError,
} from '../../../src/domain/shared/errors.js';
import { normalizeText } from '../../../src/domain/collections/search.js';
import { fixture } from './fixture.js';

function thrown(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (err) {
    return err as DomainError;
  }
  throw new Error('expected a throw');
}

describe('entries (domain)', () => {
  describe('decideCreateEntries', () => {
    it('keeps only defined data keys and logs one tracker.entry.created per entry', () => {
      const f = fixture();
      const d = f.run((s, c) =>
        decideCreateEntries(
          s,
          'groceries',
          [{ title: 'Milk', data: { aisle: 'dairy', colour: 'white' } }, { title: 'Bread' }],
          c,
        ),
      );
      expect(d.result.map((e) => e.data)).to.deep.equal([{ aisle: 'dairy' }, {}]);
      expect(d.events.map((e) => e.type)).to.deep.equal([
        'tracker.entry.created',
        'tracker.entry.created',
      ]);
      expect(d.result[0].id < d.result[1].id).to.equal(true);
    });

    it('checks every value against its field type and reports every bad item at once', () => {
      const f = fixture();
      const err = thrown(() =>
        decideCreateEntries(
          f.state,
          'meals',
          [
            { title: 'ok', data: { date: '2028-02-29' } },
            {
              title: ' ',
              data: {
                date: '2026-02-29',
                meal: 'brunch',
                cook: 'person_nobody',
                recipe: 'x'.repeat(1001),
                notes: 5,
              },
            },
          ],
          f.ctx(),
        ),
      );
      expect(err).to.be.instanceOf(Invalid);
      expect(err.issues!.map((i) => i.path)).to.deep.equal([
        ['items', 1, 'title'],
        ['items', 1, 'data', 'date'],
        ['items', 1, 'data', 'meal'],
        ['items', 1, 'data', 'cook'],
        ['items', 1, 'data', 'recipe'],
        ['items', 1, 'data', 'notes'],
      ]);
      expect(entriesOf(f.state, 'meals')).to.have.length(0);
    });

    it('refuses entries in a calendar collection', () => {
      const f = fixture();
      expect(() => decideCreateEntries(f.state, 'calendar', [{ title: 'x' }], f.ctx())).to.throw(
        Conflict,
      );
    });

    it('refuses a deleted person as a new reference but keeps it when an update leaves it alone', () => {
      const f = fixture();
      const ana = f.run((s, c) => decideCreatePerson(s, { name: 'Ana' }, c)).result;
      const [chore] = f.run((s, c) =>
        decideCreateEntries(s, 'chores', [{ title: 'Bins', data: { assignee: ana.id } }], c),
      ).result;
      f.run((s, c) => decideDeletePerson(s, ana.id, c));
      expect(
        thrown(() =>
          decideCreateEntries(
            f.state,
            'chores',
            [{ title: 'x', data: { assignee: ana.id } }],
            f.ctx(),
            SINGLE,
          ),
        ).issues,
      ).to.deep.equal([
        { path: ['data', 'assignee'], message: `is not a person of this family: ${ana.id}` },
      ]);
      const d = f.run((s, c) =>
        decideUpdateEntries(
          s,
          'chores',
          [{ entryId: chore.id, data: { assignee: ana.id, due: '2026-12-01' } }],
          c,
        ),
      );
      expect(d.result[0].data).to.deep.equal({ assignee: ana.id, due: '2026-12-01' });
    });
  });

  describe('decideUpdateEntries', () => {
    it('merges data key by key, removes keys sent as null, and logs previous and new', () => {
      const f = fixture();
      const [e] = f.run((s, c) =>
        decideCreateEntries(
          s,
          'groceries',
          [{ title: 'Milk', data: { aisle: 'dairy', quantity: '1' } }],
          c,
        ),
      ).result;
      f.tick();
      const d = f.run((s, c) =>
        decideUpdateEntries(
          s,
          'groceries',
          [{ entryId: e.id, data: { quantity: null, notes: 'oat' }, status: 'done' }],
          c,
        ),
      );
      expect(d.result[0]).to.include({ status: 'done', title: 'Milk' });
      expect(d.result[0].data).to.deep.equal({ aisle: 'dairy', notes: 'oat' });
      expect(d.events[0].previous).to.deep.include({
        status: 'active',
        data: { aisle: 'dairy', quantity: '1' },
      });
      expect(d.result[0].updatedAt).to.not.equal(e.updatedAt);
    });

    it('answers 404 for an unknown or foreign entry and changes nothing', () => {
      const f = fixture();
      const [a] = f.run((s, c) =>
        decideCreateEntries(s, 'groceries', [{ title: 'Milk' }], c),
      ).result;
      const [b] = f.run((s, c) => decideCreateEntries(s, 'chores', [{ title: 'Bins' }], c)).result;
      const err = thrown(() =>
        decideUpdateEntries(
          f.state,
          'groceries',
          [
            { entryId: a.id, title: 'Oat milk' },
            { entryId: b.id, title: 'x' },
          ],
          f.ctx(),
        ),
      );
      expect(err).to.be.instanceOf(NotFound);
      expect(err.issues).to.deep.equal([
        { path: ['items', 1, 'entryId'], message: `is not an entry of groceries: ${b.id}` },
      ]);
    });

    it('writes nothing for an item that changes nothing', () => {
      const f = fixture();
      const [a] = f.run((s, c) =>
        decideCreateEntries(s, 'groceries', [{ title: 'Milk' }], c),
      ).result;
      const d = decideUpdateEntries(
        f.state,
        'groceries',
        [{ entryId: a.id, title: 'Milk', data: { aisle: null } }],
        f.ctx(),
      );
      expect(d.changes).to.have.length(0);
      expect(d.events).to.have.length(0);
    });
  });

  describe('decideDeleteEntries', () => {
    it('refuses an id named twice', () => {
      const f = fixture();
      const [a] = f.run((s, c) =>
        decideCreateEntries(s, 'groceries', [{ title: 'Milk' }], c),
      ).result;
      expect(
        thrown(() => decideDeleteEntries(f.state, 'groceries', [a.id, a.id], f.ctx())).issues![0]
          .path,
      ).to.deep.equal(['entryIds', 1]);
    });
  });

  describe('listEntries', () => {
    it('lists newest first, leaves archived out unless asked, and pages with a cursor', () => {
      const f = fixture();
      for (let i = 0; i < 5; i++) {
        f.run((s, c) => decideCreateEntries(s, 'chores', [{ title: `c${i}` }], c));
        f.tick();
      }
      const all = entriesOf(f.state, 'chores');
      f.run((s, c) =>
        decideUpdateEntries(s, 'chores', [{ entryId: all[1].id, status: 'archived' }], c),
      );
      const chores = getCollection(f.state, 'chores')!;
      const p1 = listEntries(f.state, chores, { limit: 2 });
      expect(p1.entries.map((e) => e.title)).to.deep.equal(['c4', 'c2']);
      const p2 = listEntries(f.state, chores, { limit: 2, cursor: p1.nextCursor! });
      expect(p2.entries.map((e) => e.title)).to.deep.equal(['c1', 'c0']);
      expect(p2.nextCursor).to.equal(undefined);
      expect(
        listEntries(f.state, chores, { status: 'archived' }).entries.map((e) => e.title),
      ).to.deep.equal(['c3']);
    });

    it('matches titles and data values ignoring case and accents', () => {
      const f = fixture();
      f.run((s, c) =>
        decideCreateCollection(
          s,
          { name: 'Recipes', fields: [{ key: 'origin', label: 'Origin' }] },
          c,
        ),
      );
      f.run((s, c) =>
        decideCreateEntries(
          s,
          'recipes',
          [
            { title: 'Crème brûlée', data: { origin: 'France' } },
            { title: 'Pão de queijo', data: { origin: 'Brasil' } },
          ],
          c,
        ),
      );
      const r = getCollection(f.state, 'recipes')!;
      expect(listEntries(f.state, r, { query: 'CREME' }).entries.map((e) => e.title)).to.deep.equal(
        ['Crème brûlée'],
      );
      expect(
        listEntries(f.state, r, { query: 'pao brasil' }).entries.map((e) => e.title),
      ).to.deep.equal(['Pão de queijo']);
      expect(listEntries(f.state, r, { query: 'france queijo' }).entries).to.have.length(0);
      expect(normalizeText('ZOË')).to.equal('zoe');
    });
  });
});
