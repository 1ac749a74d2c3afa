import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { conforms } from '../helpers/contract.js';
import * as changes from '../helpers/changes.js';

const P = '/api/v1/families/{familySlug}';

describe('collections over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());
  const lastSeq = () => changes.lastSeq(server.api);
  const changesAfter = (seq: number) => changes.changesAfter(server.api, seq);

  describe('GET /trackers', () => {
    it('lists the five built-ins in order, with their fields, in the documented shape', async () => {
      const r = await server.api.get('/trackers');
      expect(r.status).to.equal(200);
      await conforms(server, r, 'get', `${P}/trackers`);
      const builtins = r.body.trackers.filter((t: any) => t.builtin);
      expect(builtins.map((t: any) => t.key)).to.deep.equal([
        'calendar',
        'meals',
        'chores',
        'routines',
        'groceries',
      ]);
      expect(builtins[0]).to.include({
        name: 'Family calendar',
        category: 'calendar',
        color: 'sage',
      });
      expect(builtins[2].fields).to.deep.equal([
        { key: 'assignee', label: 'Assignee', type: 'person' },
        { key: 'due', label: 'Due', type: 'date' },
        {
          key: 'repeats',
          label: 'Repeats',
          type: 'select',
          options: ['once', 'daily', 'weekly', 'monthly'],
        },
        { key: 'notes', label: 'Notes', type: 'textarea' },
      ]);
      expect(builtins[1]).to.not.have.property('category');
    });

    it('gives every family its own built-ins', async () => {
      const other = await server.family('builtins-check');
      const r = await other.client.get('/trackers');
      expect(r.body.trackers.map((t: any) => t.key)).to.deep.equal([
        'calendar',
        'meals',
        'chores',
        'routines',
        'groceries',
      ]);
    });
  });

  describe('POST /trackers', () => {
    it('creates a collection with a key derived from its name and logs collection.created', async () => {
      const seq = await lastSeq();
      const r = await server.api.post('/trackers', {
        name: 'Crème Brûlée Recipes',
        description: 'Desserts',
        fields: [
          { key: 'serves', label: 'Serves', type: 'number' },
          { key: 'course', label: 'Course', type: 'select', options: ['starter', 'dessert'] },
          { key: 'note', label: 'Note' },
        ],
      });
      expect(r.status).to.equal(201);
      await conforms(server, r, 'post', `${P}/trackers`);
      expect(r.body.ok).to.equal(true);
      expect(r.body.tracker).to.deep.include({
        key: 'creme-brulee-recipes',
        name: 'Crème Brûlée Recipes',
        description: 'Desserts',
        builtin: false,
        fields: [
          { key: 'serves', label: 'Serves', type: 'number' },
          { key: 'course', label: 'Course', type: 'select', options: ['starter', 'dessert'] },
          { key: 'note', label: 'Note', type: 'text' },
        ],
      });
      const listed = (await server.api.get('/trackers')).body.trackers.map((t: any) => t.key);
      expect(listed[listed.length - 1]).to.equal('creme-brulee-recipes');
      const log = await changesAfter(seq);
      expect(log.map((c) => c.type)).to.deep.equal(['collection.created']);
      expect(log[0].object).to.deep.equal(r.body.tracker);
    });

    it('answers 409 for a name already taken, ignoring case, and writes nothing', async () => {
      const seq = await lastSeq();
      const r = await server.api.post('/trackers', { name: 'GROCERIES' });
      expect(r.status).to.equal(409);
      expect(r.body).to.include({ ok: false, code: 'conflict' });
      expect(r.body.error).to.match(/Groceries/);
      expect(await changesAfter(seq)).to.deep.equal([]);
    });

    it('lets exactly one of two concurrent creates with the same name win', async () => {
      const [a, b] = await Promise.all([
        server.api.post('/trackers', { name: 'Race' }),
        server.api.post('/trackers', { name: 'race' }),
      ]);
      expect([a.status, b.status].sort()).to.deep.equal([201, 409]);
      const races = (await server.api.get('/trackers')).body.trackers.filter(
        (t: any) => t.name.toLowerCase() === 'race',
      );
      expect(races).to.have.length(1);
      expect(races[0].key).to.equal('race');
    });

    it('adds -2 when another name folds to the same key', async () => {
      const a = await server.api.post('/trackers', { name: 'Trips!' });
      const b = await server.api.post('/trackers', { name: 'Trips?' });
      expect([a.body.tracker.key, b.body.tracker.key]).to.deep.equal(['trips', 'trips-2']);
    });

    it('keeps keys within 48 characters', async () => {
      const r = await server.api.post('/trackers', {
        name: 'A very long collection name that goes on and on and on and on',
      });
      expect(r.status).to.equal(201);
      expect(r.body.tracker.key).to.equal('a-very-long-collection-name-that-goes-on-and-on');
      expect(r.body.tracker.key.length).to.be.at.most(48);
    });

    it('creates another household calendar with category calendar and a colour', async () => {
      const r = await server.api.post('/trackers', {
        name: 'School calendar',
        category: 'calendar',
        color: 'blue',
      });
      expect(r.status).to.equal(201);
      await conforms(server, r, 'post', `${P}/trackers`);
      expect(r.body.tracker).to.include({
        key: 'school-calendar',
        category: 'calendar',
        color: 'blue',
      });
      const listed = (await server.api.get('/trackers')).body.trackers.find(
        (t: any) => t.key === 'school-calendar',
      );
      expect(listed).to.include({ category: 'calendar', color: 'blue' });
    });

    it('validates field definitions and names each problem', async () => {
      const r = await server.api.post('/trackers', {
        name: 'Bad fields',
        fields: [
          { key: 'kind', label: 'Kind', type: 'select' },
          { key: 'size', label: 'Size', type: 'text', options: ['S'] },
          { key: 'size', label: 'Again' },
          { key: '1st', label: 'First' },
          { key: 'x', label: 'X', type: 'colour' },
          { key: 'y', label: 'Y', extra: true },
          { key: 'z', label: 'Z', type: 'select', options: [] },
        ],
      });
      expect(r.status).to.equal(400);
      const paths = r.body.issues.map((i: any) => JSON.stringify(i.path));
      expect(paths).to.include.members([
        '["fields",3,"key"]',
        '["fields",4,"type"]',
        '["fields",5,"extra"]',
        '["fields",6,"options"]',
      ]);
      const second = await server.api.post('/trackers', {
        name: 'Bad fields',
        fields: [
          { key: 'kind', label: 'Kind', type: 'select' },
          { key: 'size', label: 'Size', options: ['S'] },
          { key: 'kind', label: 'Again' },
        ],
      });
      expect(second.status).to.equal(400);
      expect(second.body.issues).to.deep.equal([
        {
          path: ['fields', 0, 'options'],
          message: 'is required for a select field (at least one option)',
        },
        {
          path: ['fields', 1, 'options'],
          message: 'is only allowed on select fields, not on text',
        },
        { path: ['fields', 2, 'key'], message: 'is used by another field: kind' },
      ]);
      expect(
        (await server.api.get('/trackers')).body.trackers.map((t: any) => t.name),
      ).to.not.include('Bad fields');
    });

    it('refuses an empty or blank name, an unknown colour and unknown fields', async () => {
      for (const [body, path] of [
        [{ name: '' }, ['name']],
        [{ name: '   ' }, ['name']],
        [{}, ['name']],
        [{ name: 'Colours', color: 'red' }, ['color']],
        [{ name: 'Typos', nmae: 'x' }, ['nmae']],
        [{ name: 'Cat', category: 'shopping' }, ['category']],
      ] as const) {
        const r = await server.api.post('/trackers', body);
        expect(r.status, JSON.stringify(body)).to.equal(400);
        expect(r.body.code).to.equal('invalid_request');
        expect(r.body.issues.map((i: any) => i.path)).to.deep.include(path);
      }
    });

    it("refuses a read-only key with 403 and another family's slug with 403, writing nothing", async () => {
      const read = await server.key({ scopes: ['read'] });
      const denied = await server.api.post('/trackers', { name: 'Read only' }, { key: read });
      expect(denied.status).to.equal(403);
      expect(denied.body.code).to.equal('forbidden');
      await server.family('neighbours-c');
      const foreign = await server.http.post(
        '/api/v1/families/neighbours-c/trackers',
        { name: 'Sneaky' },
        { key: server.apiKey },
      );
      expect(foreign.status).to.equal(403);
      const noKey = await server.api.post('/trackers', { name: 'No key' }, { key: null });
      expect(noKey.status).to.equal(401);
      const names = (await server.api.get('/trackers')).body.trackers.map((t: any) => t.name);
      expect(names).to.not.include.members(['Read only', 'Sneaky', 'No key']);
    });
  });

  describe('PATCH /trackers/:collectionKey', () => {
    it('changes only the fields sent, removes a description with null, and logs the previous version', async () => {
      const made = (
        await server.api.post('/trackers', { name: 'Books', description: 'To read', color: 'plum' })
      ).body.tracker;
      const seq = await lastSeq();
      const r = await server.api.patch('/trackers/books', {
        name: 'Reading list',
        description: null,
      });
      expect(r.status).to.equal(200);
      await conforms(server, r, 'patch', `${P}/trackers/{collectionKey}`);
      expect(r.body.tracker).to.include({
        key: 'books',
        name: 'Reading list',
        description: null,
        color: 'plum',
      });
      const log = await changesAfter(seq);
      expect(log.map((c) => c.type)).to.deep.equal(['collection.updated']);
      expect(log[0].previous).to.deep.equal(made);
      expect(log[0].object).to.deep.equal(r.body.tracker);
    });

    it('replaces the whole field list and hides values of removed fields until they return', async () => {
      await server.api.post('/trackers', {
        name: 'Plants',
        fields: [
          { key: 'water', label: 'Water' },
          { key: 'light', label: 'Light' },
        ],
      });
      const e = (
        await server.api.post('/trackers/plants/entries', {
          title: 'Fern',
          data: { water: 'weekly', light: 'shade' },
        })
      ).body.entry;
      const r = await server.api.patch('/trackers/plants', {
        fields: [{ key: 'water', label: 'Watering' }],
      });
      expect(r.body.tracker.fields).to.deep.equal([
        { key: 'water', label: 'Watering', type: 'text' },
      ]);
      let listed = (await server.api.get('/trackers/plants/entries')).body.entries;
      expect(listed[0].data).to.deep.equal({ water: 'weekly' });
      expect(
        (await server.api.get('/trackers/plants/entries?query=shade')).body.entries,
      ).to.have.length(0);
      await server.api.patch('/trackers/plants', {
        fields: [
          { key: 'water', label: 'Watering' },
          { key: 'light', label: 'Light' },
        ],
      });
      listed = (await server.api.get('/trackers/plants/entries')).body.entries;
      expect(listed[0]).to.deep.include({ id: e.id, data: { water: 'weekly', light: 'shade' } });
    });

    it('lets a built-in be renamed but keeps its key', async () => {
      const r = await server.api.patch('/trackers/routines', {
        name: 'Daily routines',
        color: 'gold',
      });
      expect(r.status).to.equal(200);
      expect(r.body.tracker).to.include({
        key: 'routines',
        name: 'Daily routines',
        color: 'gold',
        builtin: true,
      });
    });

    it('answers 409 for a name another collection has, 404 for an unknown key, 400 for an empty body', async () => {
      const taken = await server.api.patch('/trackers/meals', { name: 'chores' });
      expect(taken.status).to.equal(409);
      expect(
        (await server.api.get('/trackers')).body.trackers.find((t: any) => t.key === 'meals').name,
      ).to.equal('Meals');
      const missing = await server.api.patch('/trackers/nothing-here', { name: 'X' });
      expect(missing.status).to.equal(404);
      expect(missing.body.code).to.equal('not_found');
      const empty = await server.api.patch('/trackers/meals', {});
      expect(empty.status).to.equal(400);
      expect(empty.body.error).to.match(/at least one/);
    });

    it('refuses a read-only key', async () => {
      const read = await server.key({ scopes: ['read'] });
      const r = await server.api.patch('/trackers/meals', { name: 'Food' }, { key: read });
      expect(r.status).to.equal(403);
      expect(
        (await server.api.get('/trackers')).body.trackers.find((t: any) => t.key === 'meals').name,
      ).to.equal('Meals');
    });
  });

  describe('DELETE /trackers/:collectionKey', () => {
    it('deletes a custom collection and its entries, logging one collection.deleted', async () => {
      await server.api.post('/trackers', {
        name: 'Holiday',
        fields: [{ key: 'where', label: 'Where' }],
      });
      await server.api.post('/trackers/holiday/entries/batch', {
        items: [{ title: 'Tent' }, { title: 'Stove' }, { title: 'Maps' }],
      });
      const chore = (await server.api.post('/trackers/chores/entries', { title: 'Stays' })).body
        .entry;
      const seq = await lastSeq();
      const r = await server.api.delete('/trackers/holiday');
      expect(r.status).to.equal(200);
      await conforms(server, r, 'delete', `${P}/trackers/{collectionKey}`);
      expect(r.body).to.deep.include({ ok: true, deletedEntries: 3 });
      expect(r.body.tracker).to.include({ key: 'holiday', name: 'Holiday' });
      expect(
        (await server.api.get('/trackers')).body.trackers.map((t: any) => t.key),
      ).to.not.include('holiday');
      expect((await server.api.get('/trackers/holiday/entries')).status).to.equal(404);
      const log = await changesAfter(seq);
      expect(log.map((c) => c.type)).to.deep.equal(['collection.deleted']);
      expect(log[0].object).to.include({ key: 'holiday', deletedEntries: 3 });
      expect(
        (await server.api.get('/trackers/chores/entries')).body.entries.map((e: any) => e.id),
      ).to.include(chore.id);
      // The name and key are free again, and the new collection starts empty.
      const again = await server.api.post('/trackers', { name: 'Holiday' });
      expect(again.body.tracker.key).to.equal('holiday');
      expect((await server.api.get('/trackers/holiday/entries')).body.entries).to.deep.equal([]);
    });

    it('answers 409 for a built-in and 404 for an unknown key, deleting nothing', async () => {
      for (const key of ['calendar', 'meals', 'chores', 'routines', 'groceries']) {
        const r = await server.api.delete(`/trackers/${key}`);
        expect(r.status, key).to.equal(409);
        expect(r.body.error).to.match(/built-in/);
      }
      const missing = await server.api.delete('/trackers/nothing-here');
      expect(missing.status).to.equal(404);
      expect(
        (await server.api.get('/trackers')).body.trackers.filter((t: any) => t.builtin),
      ).to.have.length(5);
    });

    it('refuses a read-only key', async () => {
      await server.api.post('/trackers', { name: 'Keep me' });
      const read = await server.key({ scopes: ['read'] });
      const r = await server.api.delete('/trackers/keep-me', { key: read });
      expect(r.status).to.equal(403);
      expect((await server.api.get('/trackers')).body.trackers.map((t: any) => t.key)).to.include(
        'keep-me',
      );
    });
  });
});
