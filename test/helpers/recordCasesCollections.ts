/**
 * The records of the collections area on a field table, as test/http/recordTables.e2e.test.ts
 * holds them to it: a collection, a field definition (stored in its collection's `fields`) and
 * an entry.
 */
import { expect } from 'chai';
import type { Client } from './server.js';
import type { RecordCase } from './recordTables.js';
import {
  COLLECTION_FIELDS,
  ENTRY_FIELDS,
  FIELD_DEF_FIELDS,
} from '../../src/domain/collections/types.js';
import { COLLECTION_DERIVED } from '../../src/domain/collections/collections.js';
import { ENTRY_DERIVED } from '../../src/domain/collections/listing.js';

type Tracker = { key: string; builtin: boolean; fields: { key: string }[] };

async function trackers(client: Client): Promise<Tracker[]> {
  const r = await client.get('/trackers');
  expect(r.status, r.text).to.equal(200);
  return r.body.trackers;
}

/** The collection every entry case writes to, by family (each case makes its own family). */
const listOf = new Map<Client, string>();

export const COLLECTION_CASES: RecordCase[] = [
  {
    name: 'collection',
    storeTable: 'collections',
    schemas: { view: 'Tracker', create: 'CreateTrackerBody', update: 'UpdateTrackerBody' },
    table: COLLECTION_FIELDS,
    derived: COLLECTION_DERIVED,
    idKey: 'key',
    async create(client) {
      const r = await client.post('/trackers', {
        name: ' School calendar ',
        color: 'plum',
        description: '  ',
        fields: [{ key: 'room', label: ' Room ' }],
        category: 'calendar',
      });
      expect(r.status, r.text).to.equal(201);
      expect(r.body.tracker).to.include({ name: 'School calendar', description: null });
      expect(r.body.tracker.fields).to.deep.equal([{ key: 'room', label: 'Room', type: 'text' }]);
      return r.body.tracker;
    },
    async read(client, key) {
      return (await trackers(client)).find((t) => t.key === key)!;
    },
  },
  {
    name: 'collection field definition',
    storeTable: 'collections',
    within: 'fields',
    storedIdKey: 'key',
    idKey: 'key',
    schemas: { view: 'Tracker.fields[]', create: 'FieldDefinition' },
    table: FIELD_DEF_FIELDS,
    async create(client) {
      const r = await client.post('/trackers', {
        name: 'Sizes',
        fields: [{ key: 'shirtSize', label: ' Shirt size ', type: 'select', options: ['S', 'M'] }],
      });
      expect(r.status, r.text).to.equal(201);
      const [made] = r.body.tracker.fields;
      expect(made).to.deep.equal({
        key: 'shirtSize',
        label: 'Shirt size',
        type: 'select',
        options: ['S', 'M'],
      });
      return made;
    },
    async read(client, key) {
      for (const t of await trackers(client)) {
        const found = t.fields.find((f) => f.key === key);
        if (found && !t.builtin) return found;
      }
      throw new Error(`no field ${key}`);
    },
  },
  {
    name: 'entry',
    storeTable: 'entries',
    schemas: { view: 'Entry', create: 'CreateEntryBody', update: 'UpdateEntryBody' },
    table: ENTRY_FIELDS,
    derived: ENTRY_DERIVED,
    async create(client) {
      const list = await client.post('/trackers', {
        name: 'Weekly jobs',
        fields: [{ key: 'due', label: 'Due', type: 'date' }],
      });
      expect(list.status, list.text).to.equal(201);
      listOf.set(client, list.body.tracker.key);
      const r = await client.post(`/trackers/${list.body.tracker.key}/entries`, {
        title: ' Dishes ',
        data: { due: '2026-12-01' },
      });
      expect(r.status, r.text).to.equal(201);
      expect(r.body.entry).to.include({ title: 'Dishes', status: 'active' });
      return r.body.entry;
    },
    async read(client, id) {
      // A client of another server reads the collection the export carried.
      const key = listOf.get(client) ?? (await trackers(client)).find((t) => !t.builtin)!.key;
      const r = await client.get(`/trackers/${key}/entries`);
      expect(r.status, r.text).to.equal(200);
      return r.body.entries.find((e: { id: string }) => e.id === id);
    },
  },
];
