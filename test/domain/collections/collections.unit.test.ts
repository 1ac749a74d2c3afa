import { expect } from 'chai';
import {
  calendarCollections,
  decideCreateCollection,
  decideDeleteCollection,
  decideUpdateCollection,
  deriveKey,
  getCollection,
  listCollections,
  normalizeFields,
} from '../../../src/domain/collections/collections.js';
import { decideCreateEntries } from '../../../src/domain/collections/entries.js';
import { Conflict, Invalid } from '../../../src/domain/shared/errors.js';
import { seedRecords } from '../../../src/domain/areas.js';
import { fixture } from './fixture.js';

describe('collections (domain)', () => {
  describe('built-ins', () => {
    it('are seeded once with their fields, and a seed leaves an existing family alone', () => {
      const f = fixture();
      expect(listCollections(f.state).map((c) => c.key)).to.deep.equal([
        'calendar',
        'meals',
        'chores',
        'routines',
        'groceries',
      ]);
      expect(getCollection(f.state, 'calendar')).to.include({
        name: 'Family calendar',
        category: 'calendar',
        color: 'sage',
        builtin: true,
      });
      expect(getCollection(f.state, 'meals')!.fields.map((x) => [x.key, x.type])).to.deep.equal([
        ['date', 'date'],
        ['meal', 'select'],
        ['cook', 'person'],
        ['recipe', 'text'],
        ['notes', 'textarea'],
      ]);
      expect(getCollection(f.state, 'groceries')!.fields[1].options).to.include('household');
      expect(calendarCollections(f.state).map((c) => c.key)).to.deep.equal(['calendar']);
    });

    it('are added to a family that lacks some (an import) without touching the ones it has', () => {
      const f = fixture();
      f.run((s, c) => decideUpdateCollection(s, 'meals', { name: 'Dinners' }, c));
      f.state.apply([{ table: 'collections', id: 'chores', value: null }]);
      const missing = seedRecords(f.state.family, '2027-01-01T00:00:00.000Z', f.state);
      expect(missing.map((m) => m.id)).to.deep.equal(['chores']);
      expect(
        seedRecords(f.state.family, '2027-01-01T00:00:00.000Z').map((m) => m.id),
      ).to.have.length(5);
      expect(getCollection(f.state, 'meals')!.name).to.equal('Dinners');
    });
  });

  describe('deriveKey', () => {
    it('lower-cases, drops accents, joins words with dashes and trims to 48 characters', () => {
      expect(deriveKey('  Crème Brûlée — Recipes! ', () => false)).to.equal('creme-brulee-recipes');
      expect(deriveKey('日本', () => false)).to.equal('collection');
      expect(deriveKey('Smørrebrød & Weißwurst', () => false)).to.equal('smorrebrod-weisswurst');
      const long = deriveKey('a'.repeat(47) + ' b c', () => false);
      expect(long).to.equal('a'.repeat(47));
      expect(long.length).to.be.at.most(48);
    });

    it('adds -2, -3 on collision and keeps the suffix within 48 characters', () => {
      const taken = new Set(['packing', 'packing-2']);
      expect(deriveKey('Packing', (k) => taken.has(k))).to.equal('packing-3');
      const base = 'x'.repeat(60);
      const k = deriveKey(base, (key) => key === 'x'.repeat(48));
      expect(k).to.equal('x'.repeat(46) + '-2');
    });
  });

  describe('normalizeFields', () => {
    it('defaults type to text and keeps options only on select fields', () => {
      expect(
        normalizeFields([
          { key: 'a', label: 'A' },
          { key: 'b', label: 'B', type: 'select', options: ['x'] },
        ]),
      ).to.deep.equal([
        { key: 'a', label: 'A', type: 'text' },
        { key: 'b', label: 'B', type: 'select', options: ['x'] },
      ]);
    });

    it('refuses duplicate keys, select without options and options on other types, naming each', () => {
      try {
        normalizeFields([
          { key: 'a', label: 'A' },
          { key: 'a', label: 'A2' },
          { key: 's', label: 'S', type: 'select' },
          { key: 'n', label: 'N', type: 'number', options: ['1'] },
          { key: '9x', label: 'bad' },
        ]);
        expect.fail('should throw');
      } catch (err) {
        expect(err).to.be.instanceOf(Invalid);
        expect((err as Invalid).issues!.map((i) => i.path)).to.deep.equal([
          ['fields', 1, 'key'],
          ['fields', 2, 'options'],
          ['fields', 3, 'options'],
          ['fields', 4, 'key'],
        ]);
      }
    });
  });

  describe('decideCreateCollection', () => {
    it('creates a collection with a derived key and logs collection.created', () => {
      const f = fixture();
      const d = f.run((s, c) =>
        decideCreateCollection(
          s,
          { name: 'Packing list', fields: [{ key: 'who', label: 'Who', type: 'person' }] },
          c,
        ),
      );
      expect(d.result).to.include({
        key: 'packing-list',
        name: 'Packing list',
        builtin: false,
        description: null,
        category: null,
      });
      expect(d.events).to.have.length(1);
      expect(d.events[0].type).to.equal('collection.created');
      expect(d.events[0].object)
        .to.include({ key: 'packing-list' })
        .and.not.have.property('category');
    });

    it('refuses a name already used, ignoring case, with a conflict', () => {
      const f = fixture();
      expect(() => decideCreateCollection(f.state, { name: 'MEALS' }, f.ctx())).to.throw(Conflict);
    });

    it('gives a second collection whose name folds to the same key a -2 key', () => {
      const f = fixture();
      f.run((s, c) => decideCreateCollection(s, { name: 'Trips!' }, c));
      const d = f.run((s, c) => decideCreateCollection(s, { name: 'Trips?' }, c));
      expect(d.result.key).to.equal('trips-2');
    });
  });

  describe('decideUpdateCollection', () => {
    it('changes only what is sent, keeps the key, and logs the previous version', () => {
      const f = fixture();
      f.tick();
      const d = f.run((s, c) =>
        decideUpdateCollection(s, 'meals', { name: 'Dinners', description: null }, c),
      );
      expect(d.result).to.include({ key: 'meals', name: 'Dinners', description: null });
      expect(d.result.fields).to.have.length(5);
      expect(d.events[0]).to.deep.include({ type: 'collection.updated' });
      expect(d.events[0].previous).to.include({ name: 'Meals' });
    });

    it('writes nothing when nothing changes', () => {
      const f = fixture();
      const d = decideUpdateCollection(f.state, 'meals', { name: 'Meals' }, f.ctx());
      expect(d.changes).to.deep.equal([]);
      expect(d.events).to.deep.equal([]);
    });

    it('allows a collection to change the case of its own name but not to take another name', () => {
      const f = fixture();
      expect(
        f.run((s, c) => decideUpdateCollection(s, 'meals', { name: 'MEALS' }, c)).result.name,
      ).to.equal('MEALS');
      expect(() => decideUpdateCollection(f.state, 'meals', { name: 'chores' }, f.ctx())).to.throw(
        Conflict,
      );
    });
  });

  describe('decideDeleteCollection', () => {
    it('refuses a built-in collection', () => {
      const f = fixture();
      expect(() => decideDeleteCollection(f.state, 'chores', f.ctx())).to.throw(
        Conflict,
        /built-in/,
      );
    });

    it('deletes a custom collection with its entries and logs one collection.deleted', () => {
      const f = fixture();
      f.run((s, c) => decideCreateCollection(s, { name: 'Trips' }, c));
      f.run((s, c) => decideCreateEntries(s, 'trips', [{ title: 'a' }, { title: 'b' }], c));
      f.run((s, c) => decideCreateEntries(s, 'chores', [{ title: 'stays' }], c));
      const d = f.run((s, c) => decideDeleteCollection(s, 'trips', c));
      expect(d.result.deletedEntries).to.equal(2);
      expect(d.changes).to.have.length(3);
      expect(d.events.map((e) => e.type)).to.deep.equal(['collection.deleted']);
      expect(getCollection(f.state, 'trips')).to.equal(undefined);
      expect(Array.from(f.state.table<any>('entries').values()).map((e) => e.title)).to.deep.equal([
        'stays',
      ]);
    });
  });
});
