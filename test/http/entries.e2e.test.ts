import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { conforms } from '../helpers/contract.js';
import * as changes from '../helpers/changes.js';

const P = '/api/v1/families/{familySlug}/trackers/{collectionKey}';

describe('entries over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    const r = await server.api.post('/trackers', {
      name: 'Kit',
      fields: [
        { key: 'size', label: 'Size', type: 'select', options: ['S', 'M', 'L'] },
        { key: 'weight', label: 'Weight', type: 'number' },
        { key: 'bought', label: 'Bought', type: 'date' },
        { key: 'owner', label: 'Owner', type: 'person' },
        { key: 'label', label: 'Label', type: 'text' },
        { key: 'story', label: 'Story', type: 'textarea' },
      ],
    });
    expect(r.status).to.equal(201);
  });
  after(() => server?.close());
  const lastSeq = () => changes.lastSeq(server.api);
  const changesAfter = (seq: number) => changes.changesAfter(server.api, seq);

  /** A fresh collection so a test sees only its own entries. */
  let n = 0;
  async function freshCollection(
    fields: unknown[] = [{ key: 'note', label: 'Note' }],
  ): Promise<string> {
    const r = await server.api.post('/trackers', { name: `List ${++n}`, fields });
    return r.body.tracker.key;
  }
  async function all(key: string, qs = ''): Promise<any[]> {
    const out: any[] = [];
    let cursor = '';
    for (;;) {
      const r = await server.api.get(
        `/trackers/${key}/entries?limit=50${qs}${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(r.status).to.equal(200);
      out.push(...r.body.entries);
      if (!r.body.nextCursor) return out;
      cursor = encodeURIComponent(r.body.nextCursor);
    }
  }

  describe('GET /trackers/:key/entries', () => {
    let key: string;
    before(async () => {
      key = await freshCollection();
      const items = Array.from({ length: 50 }, (_, i) => ({ title: `item ${i}` }));
      expect((await server.api.post(`/trackers/${key}/entries/batch`, { items })).status).to.equal(
        201,
      );
      expect(
        (
          await server.api.post(`/trackers/${key}/entries/batch`, {
            items: items.map((x) => ({ title: `more ${x.title}` })).slice(0, 10),
          })
        ).status,
      ).to.equal(201);
    });

    it('answers 20 entries newest first by default, in the documented shape, with nextCursor', async () => {
      const r = await server.api.get(`/trackers/${key}/entries`);
      expect(r.status).to.equal(200);
      await conforms(server, r, 'get', `${P}/entries`);
      expect(r.body.entries).to.have.length(20);
      expect(r.body.entries[0]).to.include({
        title: 'more item 9',
        status: 'active',
        collectionKey: key,
      });
      expect(r.body.entries[9].title).to.equal('more item 0');
      expect(r.body.entries[10].title).to.equal('item 49');
      expect(r.body.nextCursor).to.be.a('string');
    });

    it('takes limit 1 and 50 and refuses 0 and 51 naming query.limit', async () => {
      const one = await server.api.get(`/trackers/${key}/entries?limit=1`);
      expect(one.body.entries.map((e: any) => e.title)).to.deep.equal(['more item 9']);
      const fifty = await server.api.get(`/trackers/${key}/entries?limit=50`);
      expect(fifty.body.entries).to.have.length(50);
      for (const bad of ['0', '51', 'ten', '-1', '2.5']) {
        const r = await server.api.get(`/trackers/${key}/entries?limit=${bad}`);
        expect(r.status, bad).to.equal(400);
        expect(r.body.issues[0].path).to.deep.equal(['query', 'limit']);
      }
    });

    it('continues with cursor until every entry was seen once, then leaves nextCursor out', async () => {
      const seen = await all(key);
      expect(seen).to.have.length(60);
      expect(new Set(seen.map((e) => e.id)).size).to.equal(60);
      const last = await server.api.get(
        `/trackers/${key}/entries?limit=10&cursor=${encodeURIComponent((await server.api.get(`/trackers/${key}/entries?limit=50`)).body.nextCursor)}`,
      );
      expect(last.body.entries.map((e: any) => e.title)).to.deep.equal(
        Array.from({ length: 10 }, (_, i) => `item ${9 - i}`),
      );
      expect(last.body).to.not.have.property('nextCursor');
    });

    it('keeps paging correctly when the entry under the cursor is deleted', async () => {
      const k = await freshCollection();
      await server.api.post(`/trackers/${k}/entries/batch`, {
        items: [{ title: 'a' }, { title: 'b' }, { title: 'c' }, { title: 'd' }],
      });
      const p1 = await server.api.get(`/trackers/${k}/entries?limit=2`);
      expect(p1.body.entries.map((e: any) => e.title)).to.deep.equal(['d', 'c']);
      await server.api.delete(`/trackers/${k}/entries/${p1.body.entries[1].id}`);
      const p2 = await server.api.get(
        `/trackers/${k}/entries?limit=2&cursor=${encodeURIComponent(p1.body.nextCursor)}`,
      );
      expect(p2.body.entries.map((e: any) => e.title)).to.deep.equal(['b', 'a']);
    });

    it('keeps entries, their order and cursors across a restart of the daemon', async () => {
      const own = await startTestServer();
      let before: any;
      try {
        const items = Array.from({ length: 30 }, (_, i) => ({
          title: `r${i}`,
          data: { aisle: 'dairy' },
        }));
        await own.api.post('/trackers/groceries/entries/batch', { items: items.slice(0, 15) });
        await own.api.post('/trackers/groceries/entries', { title: 'single' });
        await own.api.post('/trackers/groceries/entries/batch', { items: items.slice(15) });
        before = await own.api.get('/trackers/groceries/entries?limit=10');
      } finally {
        await own.close({ keepData: true });
      }
      const again = await startTestServer({ dataDir: own.dataDir });
      try {
        const after = await again.api.get('/trackers/groceries/entries?limit=10');
        expect(after.body).to.deep.equal(before.body);
        const next = await again.api.get(
          `/trackers/groceries/entries?limit=50&cursor=${encodeURIComponent(before.body.nextCursor)}`,
        );
        expect(next.body.entries.map((e: any) => e.title)).to.deep.equal([
          'r19',
          'r18',
          'r17',
          'r16',
          'r15',
          'single',
          ...Array.from({ length: 15 }, (_, i) => `r${14 - i}`),
        ]);
      } finally {
        await again.close();
        rmSync(own.dataDir, { recursive: true, force: true });
      }
    });

    it('refuses a cursor it did not give out and unknown parameters', async () => {
      const r = await server.api.get(`/trackers/${key}/entries?cursor=not-a-cursor`);
      expect(r.status).to.equal(400);
      expect(r.body.issues[0].path).to.deep.equal(['query', 'cursor']);
      const typo = await server.api.get(`/trackers/${key}/entries?limt=5`);
      expect(typo.status).to.equal(400);
      expect(typo.body.issues[0].path).to.deep.equal(['query', 'limt']);
    });

    it('leaves archived entries out unless status asks for them, and filters by status', async () => {
      const k = await freshCollection();
      const made = (
        await server.api.post(`/trackers/${k}/entries/batch`, {
          items: [{ title: 'open' }, { title: 'finished' }, { title: 'old' }],
        })
      ).body.entries;
      await server.api.patch(`/trackers/${k}/entries/batch`, {
        items: [
          { entryId: made[1].id, status: 'done' },
          { entryId: made[2].id, status: 'archived' },
        ],
      });
      const titles = async (qs: string) =>
        (await server.api.get(`/trackers/${k}/entries${qs}`)).body.entries.map((e: any) => e.title);
      expect(await titles('')).to.deep.equal(['finished', 'open']);
      expect(await titles('?status=archived')).to.deep.equal(['old']);
      expect(await titles('?status=done')).to.deep.equal(['finished']);
      expect(await titles('?status=active')).to.deep.equal(['open']);
      const bad = await server.api.get(`/trackers/${k}/entries?status=deleted`);
      expect(bad.status).to.equal(400);
      expect(bad.body.issues[0]).to.deep.include({ path: ['query', 'status'] });
    });

    it('answers a repeated page from cache as the same JSON, and a write shows at once', async () => {
      const k = await freshCollection();
      const made = (await server.api.post(`/trackers/${k}/entries`, { title: 'Water plants' })).body
        .entry;
      const first = await server.api.get(`/trackers/${k}/entries?query=plants`);
      const again = await server.api.get(`/trackers/${k}/entries?query=plants`);
      expect(again.headers.get('content-type')).to.match(/^application\/json/);
      expect(again.text).to.equal(first.text);
      expect(again.body.entries.map((e: any) => e.title)).to.deep.equal(['Water plants']);
      await server.api.patch(`/trackers/${k}/entries/${made.id}`, { title: 'Water the plants' });
      expect(
        (await server.api.get(`/trackers/${k}/entries?query=plants`)).body.entries.map(
          (e: any) => e.title,
        ),
      ).to.deep.equal(['Water the plants']);
      await server.api.patch(`/trackers/${k}`, {
        name: `${k} renamed`,
        fields: [{ key: 'room', label: 'Room' }],
      });
      await server.api.patch(`/trackers/${k}/entries/${made.id}`, { data: { room: 'Kitchen' } });
      expect(
        (await server.api.get(`/trackers/${k}/entries?query=plants`)).body.entries[0].data,
      ).to.deep.equal({ room: 'Kitchen' });
      await server.api.delete(`/trackers/${k}/entries/${made.id}`);
      expect(
        (await server.api.get(`/trackers/${k}/entries?query=plants`)).body.entries,
      ).to.deep.equal([]);
    });

    it('matches query against titles and data values, ignoring case and accents', async () => {
      const k = await freshCollection([
        { key: 'origin', label: 'Origin' },
        { key: 'serves', label: 'Serves', type: 'number' },
      ]);
      await server.api.post(`/trackers/${k}/entries/batch`, {
        items: [
          { title: 'Crème brûlée', data: { origin: 'France', serves: 4 } },
          { title: 'Pão de queijo', data: { origin: 'São Paulo', serves: 12 } },
          { title: 'Apple pie', data: { origin: 'ENGLAND' } },
          { title: 'Smørrebrød', data: { origin: 'København' } },
          { title: 'Weißwurst', data: { origin: 'Bayern' } },
        ],
      });
      const titles = async (q: string) =>
        (
          await server.api.get(`/trackers/${k}/entries?query=${encodeURIComponent(q)}`)
        ).body.entries.map((e: any) => e.title);
      expect(await titles('CREME')).to.deep.equal(['Crème brûlée']);
      expect(await titles('sao paulo')).to.deep.equal(['Pão de queijo']);
      expect(await titles('england')).to.deep.equal(['Apple pie']);
      expect(await titles('12')).to.deep.equal(['Pão de queijo']);
      expect(await titles('pie france')).to.deep.equal([]);
      expect(await titles('e')).to.have.length(5);
      // Letters that do not decompose are spelled out as a plain keyboard types them.
      expect(await titles('smorrebrod')).to.deep.equal(['Smørrebrød']);
      expect(await titles('WEISSWURST')).to.deep.equal(['Weißwurst']);
      expect(await titles('weißwurst')).to.deep.equal(['Weißwurst']);
    });

    it('answers 404 for an unknown collection, reads with a read-only key, and 403 for another family', async () => {
      const missing = await server.api.get('/trackers/nothing-here/entries');
      expect(missing.status).to.equal(404);
      expect(missing.body.code).to.equal('not_found');
      const read = await server.key({ scopes: ['read'] });
      const ok = await server.api.get(`/trackers/${key}/entries?limit=1`, { key: read });
      expect(ok.body.entries).to.have.length(1);
      await server.family('neighbours-e');
      const foreign = await server.http.get(
        '/api/v1/families/neighbours-e/trackers/chores/entries',
        { key: server.apiKey },
      );
      expect(foreign.status).to.equal(403);
    });

    it('lists a calendar collection (its events) and answers 200 with entries', async () => {
      const r = await server.api.get('/trackers/calendar/entries');
      expect(r.status).to.equal(200);
      await conforms(server, r, 'get', `${P}/entries`);
      expect(r.body.entries).to.be.an('array');
    });
  });

  describe('POST /trackers/:key/entries', () => {
    it('creates an entry, drops undefined data keys, and logs tracker.entry.created', async () => {
      const seq = await lastSeq();
      const r = await server.api.post('/trackers/kit/entries', {
        title: 'Raincoat',
        data: { size: 'M', weight: 0.8, colour: 'red' },
      });
      expect(r.status).to.equal(201);
      await conforms(server, r, 'post', `${P}/entries`);
      expect(r.body.entry).to.include({
        title: 'Raincoat',
        status: 'active',
        collectionKey: 'kit',
      });
      expect(r.body.entry.id).to.match(/^ent_[0-9a-z]{20}$/);
      expect(r.body.entry.data).to.deep.equal({ size: 'M', weight: 0.8 });
      const listed = (await server.api.get('/trackers/kit/entries?limit=1')).body.entries[0];
      expect(listed).to.deep.equal(r.body.entry);
      const log = await changesAfter(seq);
      expect(log.map((c) => c.type)).to.deep.equal(['tracker.entry.created']);
      expect(log[0].object).to.deep.equal(r.body.entry);
    });

    it('defaults data to {}', async () => {
      const r = await server.api.post('/trackers/kit/entries', { title: 'Hat' });
      expect(r.body.entry.data).to.deep.equal({});
    });

    it('refuses an empty or blank title and a missing title', async () => {
      for (const body of [{ title: '' }, { title: '   ' }, { data: {} }]) {
        const r = await server.api.post('/trackers/kit/entries', body);
        expect(r.status, JSON.stringify(body)).to.equal(400);
        expect(r.body.issues[0].path).to.deep.equal(['title']);
      }
    });

    it('accepts 2028-02-29 and refuses 2026-02-29 for a date field', async () => {
      const ok = await server.api.post('/trackers/kit/entries', {
        title: 'Leap',
        data: { bought: '2028-02-29' },
      });
      expect(ok.status).to.equal(201);
      expect(ok.body.entry.data).to.deep.equal({ bought: '2028-02-29' });
      for (const bad of ['2026-02-29', '2026-13-01', '29/02/2028', 20280229]) {
        const r = await server.api.post('/trackers/kit/entries', {
          title: 'Not leap',
          data: { bought: bad },
        });
        expect(r.status, String(bad)).to.equal(400);
        expect(r.body.issues).to.deep.equal([
          { path: ['data', 'bought'], message: 'must be a calendar date YYYY-MM-DD' },
        ]);
      }
    });

    it('refuses an unknown select option and a number that is not a number', async () => {
      const r = await server.api.post('/trackers/kit/entries', {
        title: 'Boots',
        data: { size: 'XL', weight: '2' },
      });
      expect(r.status).to.equal(400);
      expect(r.body.issues).to.deep.equal([
        { path: ['data', 'size'], message: 'must be one of S, M, L' },
        { path: ['data', 'weight'], message: 'must be a finite number' },
      ]);
    });

    it('accepts text of 1,000 characters and refuses 1,001; textarea 20,000 and 20,001', async () => {
      const ok = await server.api.post('/trackers/kit/entries', {
        title: 'Long',
        data: { label: 'x'.repeat(1000), story: 'y'.repeat(20000) },
      });
      expect(ok.status).to.equal(201);
      expect(ok.body.entry.data.label).to.have.length(1000);
      expect(ok.body.entry.data.story).to.have.length(20000);
      const text = await server.api.post('/trackers/kit/entries', {
        title: 'Too long',
        data: { label: 'x'.repeat(1001) },
      });
      expect(text.status).to.equal(400);
      expect(text.body.issues).to.deep.equal([
        { path: ['data', 'label'], message: 'must be at most 1000 characters long' },
      ]);
      const area = await server.api.post('/trackers/kit/entries', {
        title: 'Too long',
        data: { story: 'y'.repeat(20001) },
      });
      expect(area.status).to.equal(400);
      expect(area.body.issues).to.deep.equal([
        { path: ['data', 'story'], message: 'must be at most 20000 characters long' },
      ]);
      const titles = (await all('kit')).map((e) => e.title);
      expect(titles).to.not.include('Too long');
    });

    it('counts characters as code points: 1,000 emoji fit a text field and 500 a title, one more does not', async () => {
      const ok = await server.api.post('/trackers/kit/entries', {
        title: '\u{1F37D}'.repeat(500),
        data: { label: '\u{1F9F9}'.repeat(1000) },
      });
      expect(ok.status).to.equal(201);
      expect([...ok.body.entry.data.label]).to.have.length(1000);
      expect([...ok.body.entry.title]).to.have.length(500);
      const text = await server.api.post('/trackers/kit/entries', {
        title: 'Emoji',
        data: { label: '\u{1F9F9}'.repeat(1001) },
      });
      expect(text.status).to.equal(400);
      expect(text.body.issues).to.deep.equal([
        { path: ['data', 'label'], message: 'must be at most 1000 characters long' },
      ]);
      const title = await server.api.post('/trackers/kit/entries', {
        title: '\u{1F37D}'.repeat(501),
      });
      expect(title.status).to.equal(400);
      expect(title.body.issues[0].path).to.deep.equal(['title']);
    });

    it('takes an existing person and refuses an unknown or deleted one, keeping old references readable', async () => {
      const ana = (await server.api.post('/people', { name: 'Ana' })).body.person;
      const ok = await server.api.post('/trackers/chores/entries', {
        title: 'Bins',
        data: { assignee: ana.id },
      });
      expect(ok.status).to.equal(201);
      const unknown = await server.api.post('/trackers/chores/entries', {
        title: 'Dust',
        data: { assignee: 'person_nobody' },
      });
      expect(unknown.status).to.equal(400);
      expect(unknown.body.issues[0].path).to.deep.equal(['data', 'assignee']);
      expect((await server.api.delete(`/people/${ana.id}`)).status).to.equal(200);
      const deleted = await server.api.post('/trackers/chores/entries', {
        title: 'Sweep',
        data: { assignee: ana.id },
      });
      expect(deleted.status).to.equal(400);
      expect(deleted.body.issues).to.deep.equal([
        { path: ['data', 'assignee'], message: `is not a person of this family: ${ana.id}` },
      ]);
      const listed = (await all('chores')).find((e) => e.id === ok.body.entry.id);
      expect(listed.data).to.deep.equal({ assignee: ana.id });
    });

    it('answers 404 for an unknown collection and 409 for a calendar collection, writing nothing', async () => {
      const seq = await lastSeq();
      const missing = await server.api.post('/trackers/nothing-here/entries', { title: 'x' });
      expect(missing.status).to.equal(404);
      const cal = await server.api.post('/trackers/calendar/entries', { title: 'Dentist' });
      expect(cal.status).to.equal(409);
      expect(cal.body.error).to.match(/calendar\/events/);
      await server.api.post('/trackers', {
        name: 'Club calendar',
        category: 'calendar',
        color: 'clay',
      });
      expect(
        (await server.api.post('/trackers/club-calendar/entries', { title: 'Match' })).status,
      ).to.equal(409);
      expect(await changesAfter(seq)).to.have.length(1); // only the collection.created
      expect(
        (await server.api.get('/trackers/calendar/entries')).body.entries.map((e: any) => e.title),
      ).to.not.include('Dentist');
    });

    it("refuses a read-only key with 403 and another family's slug with 403", async () => {
      const read = await server.key({ scopes: ['read'] });
      const r = await server.api.post('/trackers/kit/entries', { title: 'Sneaky' }, { key: read });
      expect(r.status).to.equal(403);
      expect(r.body.error).to.match(/"write" scope/);
      await server.family('neighbours-p');
      const foreign = await server.http.post(
        '/api/v1/families/neighbours-p/trackers/chores/entries',
        { title: 'Sneaky' },
        { key: server.apiKey },
      );
      expect(foreign.status).to.equal(403);
      expect((await all('kit')).map((e) => e.title)).to.not.include('Sneaky');
    });
  });

  describe('PATCH /trackers/:key/entries/:entryId', () => {
    it('merges data key by key, removes null keys, sets status, and logs previous and new', async () => {
      const made = (
        await server.api.post('/trackers/kit/entries', {
          title: 'Tent',
          data: { size: 'L', label: 'green', weight: 3 },
        })
      ).body.entry;
      const seq = await lastSeq();
      const r = await server.api.patch(`/trackers/kit/entries/${made.id}`, {
        data: { label: null, weight: 2.5, colour: 'x' },
        status: 'done',
      });
      expect(r.status).to.equal(200);
      await conforms(server, r, 'patch', `${P}/entries/{entryId}`);
      expect(r.body.entry).to.include({ id: made.id, title: 'Tent', status: 'done' });
      expect(r.body.entry.data).to.deep.equal({ size: 'L', weight: 2.5 });
      const log = await changesAfter(seq);
      expect(log.map((c) => c.type)).to.deep.equal(['tracker.entry.updated']);
      expect(log[0].previous).to.deep.equal(made);
      expect(log[0].object).to.deep.equal(r.body.entry);
      const retitled = await server.api.patch(`/trackers/kit/entries/${made.id}`, {
        title: 'Big tent',
      });
      expect(retitled.body.entry).to.deep.include({
        title: 'Big tent',
        status: 'done',
        data: { size: 'L', weight: 2.5 },
      });
    });

    it('validates like create and changes nothing when invalid', async () => {
      const made = (
        await server.api.post('/trackers/kit/entries', { title: 'Mat', data: { size: 'S' } })
      ).body.entry;
      for (const [body, path] of [
        [{ title: '' }, ['title']],
        [{ data: { size: 'XS' } }, ['data', 'size']],
        [{ status: 'gone' }, ['status']],
        [{ data: { bought: '2026-02-29' } }, ['data', 'bought']],
        [{}, []],
        [{ id: 'x' }, ['id']],
      ] as const) {
        const r = await server.api.patch(`/trackers/kit/entries/${made.id}`, body);
        expect(r.status, JSON.stringify(body)).to.equal(400);
        expect(r.body.issues[0].path).to.deep.equal(path);
      }
      expect((await all('kit')).find((e) => e.id === made.id)).to.deep.equal(made);
    });

    it('answers 404 for an unknown entry or one of another collection, and 409 for a calendar', async () => {
      const chore = (await server.api.post('/trackers/chores/entries', { title: 'Iron' })).body
        .entry;
      expect(
        (await server.api.patch('/trackers/kit/entries/ent_00000000000000000000', { title: 'x' }))
          .status,
      ).to.equal(404);
      const foreign = await server.api.patch(`/trackers/kit/entries/${chore.id}`, { title: 'x' });
      expect(foreign.status).to.equal(404);
      expect(
        (await server.api.patch(`/trackers/calendar/entries/${chore.id}`, { title: 'x' })).status,
      ).to.equal(409);
      expect((await all('chores')).find((e) => e.id === chore.id).title).to.equal('Iron');
    });
  });

  describe('DELETE /trackers/:key/entries/:entryId', () => {
    it('deletes the entry, answers it, logs tracker.entry.deleted, and answers 404 the second time', async () => {
      const made = (await server.api.post('/trackers/kit/entries', { title: 'Old socks' })).body
        .entry;
      const seq = await lastSeq();
      const r = await server.api.delete(`/trackers/kit/entries/${made.id}`);
      expect(r.status).to.equal(200);
      await conforms(server, r, 'delete', `${P}/entries/{entryId}`);
      expect(r.body.entry).to.include({ id: made.id, title: 'Old socks' });
      expect((await all('kit')).map((e) => e.id)).to.not.include(made.id);
      expect((await all('kit', '&status=archived')).map((e) => e.id)).to.not.include(made.id);
      const log = await changesAfter(seq);
      expect(log.map((c) => c.type)).to.deep.equal(['tracker.entry.deleted']);
      expect(log[0].object).to.deep.equal(made);
      const again = await server.api.delete(`/trackers/kit/entries/${made.id}`);
      expect(again.status).to.equal(404);
    });

    it('refuses a read-only key and a calendar collection', async () => {
      const made = (await server.api.post('/trackers/kit/entries', { title: 'Keep' })).body.entry;
      const read = await server.key({ scopes: ['read'] });
      expect(
        (await server.api.delete(`/trackers/kit/entries/${made.id}`, { key: read })).status,
      ).to.equal(403);
      expect((await server.api.delete(`/trackers/calendar/entries/${made.id}`)).status).to.equal(
        409,
      );
      expect((await all('kit')).map((e) => e.id)).to.include(made.id);
    });
  });

  describe('POST /trackers/:key/entries/batch', () => {
    it('creates 1 entry and 50 entries, one change-log record each, in request order', async () => {
      const k = await freshCollection();
      const seq = await lastSeq();
      const one = await server.api.post(`/trackers/${k}/entries/batch`, {
        items: [{ title: 'solo', data: { note: 'n' } }],
      });
      expect(one.status).to.equal(201);
      await conforms(server, one, 'post', `${P}/entries/batch`);
      expect(one.body).to.deep.include({ ok: true, count: 1 });
      expect(one.body.entries[0]).to.include({ title: 'solo' });
      const items = Array.from({ length: 50 }, (_, i) => ({ title: `b${i}` }));
      const fifty = await server.api.post(`/trackers/${k}/entries/batch`, { items });
      expect(fifty.status).to.equal(201);
      expect(fifty.body.count).to.equal(50);
      expect(fifty.body.entries.map((e: any) => e.title)).to.deep.equal(items.map((x) => x.title));
      expect(await all(k)).to.have.length(51);
      const log = await changesAfter(seq);
      expect(log).to.have.length(51);
      expect(log.every((c) => c.type === 'tracker.entry.created')).to.equal(true);
      expect(log.slice(1).map((c) => c.object.id)).to.deep.equal(
        fifty.body.entries.map((e: any) => e.id),
      );
    });

    it('refuses 0 and 51 items naming items', async () => {
      const k = await freshCollection();
      for (const count of [0, 51]) {
        const r = await server.api.post(`/trackers/${k}/entries/batch`, {
          items: Array.from({ length: count }, (_, i) => ({ title: `t${i}` })),
        });
        expect(r.status, String(count)).to.equal(400);
        expect(r.body.issues[0]).to.deep.equal({
          path: ['items'],
          message: 'must have 1 to 50 items',
        });
      }
      expect(await all(k)).to.have.length(0);
    });

    it('writes nothing when one item is invalid, naming items.i', async () => {
      const k = await freshCollection([{ key: 'when', label: 'When', type: 'date' }]);
      const seq = await lastSeq();
      const items = Array.from({ length: 10 }, (_, i) => ({
        title: `t${i}`,
        data: { when: '2028-02-29' },
      }));
      items[3] = { title: 't3', data: { when: '2026-02-29' } };
      const r = await server.api.post(`/trackers/${k}/entries/batch`, { items });
      expect(r.status).to.equal(400);
      expect(r.body.issues).to.deep.equal([
        { path: ['items', 3, 'data', 'when'], message: 'must be a calendar date YYYY-MM-DD' },
      ]);
      const shape = await server.api.post(`/trackers/${k}/entries/batch`, {
        items: [{ title: 'ok' }, { title: '' }, { titel: 'typo' }],
      });
      expect(shape.status).to.equal(400);
      expect(shape.body.issues.map((i: any) => i.path)).to.deep.include.members([
        ['items', 1, 'title'],
        ['items', 2, 'titel'],
      ]);
      expect(await all(k)).to.have.length(0);
      expect(await changesAfter(seq)).to.deep.equal([]);
    });

    it('answers 409 for a calendar collection and 403 for a read-only key', async () => {
      expect(
        (await server.api.post('/trackers/calendar/entries/batch', { items: [{ title: 'x' }] }))
          .status,
      ).to.equal(409);
      const read = await server.key({ scopes: ['read'] });
      expect(
        (
          await server.api.post(
            '/trackers/kit/entries/batch',
            { items: [{ title: 'x' }] },
            { key: read },
          )
        ).status,
      ).to.equal(403);
    });
  });

  describe('PATCH /trackers/:key/entries/batch', () => {
    it('updates 1 and 50 entries, logging one tracker.entry.updated each with previous', async () => {
      const k = await freshCollection();
      const made = (
        await server.api.post(`/trackers/${k}/entries/batch`, {
          items: Array.from({ length: 50 }, (_, i) => ({ title: `u${i}` })),
        })
      ).body.entries;
      const seq = await lastSeq();
      const one = await server.api.patch(`/trackers/${k}/entries/batch`, {
        items: [{ entryId: made[0].id, status: 'done' }],
      });
      expect(one.status).to.equal(200);
      await conforms(server, one, 'patch', `${P}/entries/batch`);
      expect(one.body).to.deep.include({ ok: true, count: 1 });
      expect(one.body.entries[0]).to.include({ id: made[0].id, status: 'done', title: 'u0' });
      const fifty = await server.api.patch(`/trackers/${k}/entries/batch`, {
        items: made.map((e: any) => ({
          entryId: e.id,
          title: e.title.toUpperCase(),
          data: { note: 'n' },
        })),
      });
      expect(fifty.status).to.equal(200);
      expect(fifty.body.count).to.equal(50);
      const listed = await all(k);
      expect(listed.map((e) => e.title).sort()).to.deep.equal(
        made.map((e: any) => e.title.toUpperCase()).sort(),
      );
      const log = await changesAfter(seq);
      expect(log).to.have.length(51);
      expect(
        log.every((c) => c.type === 'tracker.entry.updated' && c.previous && c.object),
      ).to.equal(true);
      expect(log[1].previous).to.include({ title: 'u0', status: 'done' });
      expect(log[1].object).to.deep.include({ title: 'U0', data: { note: 'n' } });
    });

    it('refuses 0 and 51 items', async () => {
      const k = await freshCollection();
      const e = (await server.api.post(`/trackers/${k}/entries`, { title: 'x' })).body.entry;
      for (const count of [0, 51]) {
        const r = await server.api.patch(`/trackers/${k}/entries/batch`, {
          items: Array.from({ length: count }, () => ({ entryId: e.id, title: 'y' })),
        });
        expect(r.status, String(count)).to.equal(400);
        expect(r.body.issues[0].path).to.deep.equal(['items']);
      }
      expect((await all(k))[0].title).to.equal('x');
    });

    it('changes nothing when one item is invalid (400) or names an unknown entry (404)', async () => {
      const k = await freshCollection([
        { key: 'pick', label: 'Pick', type: 'select', options: ['a', 'b'] },
      ]);
      const made = (
        await server.api.post(`/trackers/${k}/entries/batch`, {
          items: [{ title: 'one' }, { title: 'two' }],
        })
      ).body.entries;
      const seq = await lastSeq();
      const bad = await server.api.patch(`/trackers/${k}/entries/batch`, {
        items: [
          { entryId: made[0].id, title: 'ONE' },
          { entryId: made[1].id, data: { pick: 'c' } },
        ],
      });
      expect(bad.status).to.equal(400);
      expect(bad.body.issues).to.deep.equal([
        { path: ['items', 1, 'data', 'pick'], message: 'must be one of a, b' },
      ]);
      const unknown = await server.api.patch(`/trackers/${k}/entries/batch`, {
        items: [
          { entryId: made[0].id, title: 'ONE' },
          { entryId: 'ent_00000000000000000000', title: 'x' },
        ],
      });
      expect(unknown.status).to.equal(404);
      expect(unknown.body.issues[0].path).to.deep.equal(['items', 1, 'entryId']);
      const twice = await server.api.patch(`/trackers/${k}/entries/batch`, {
        items: [
          { entryId: made[0].id, title: 'ONE' },
          { entryId: made[0].id, title: 'UNO' },
        ],
      });
      expect(twice.status).to.equal(400);
      expect(twice.body.issues[0].path).to.deep.equal(['items', 1, 'entryId']);
      const noChange = await server.api.patch(`/trackers/${k}/entries/batch`, {
        items: [{ entryId: made[0].id }],
      });
      expect(noChange.status).to.equal(400);
      expect(noChange.body.issues[0].path).to.deep.equal(['items', 0]);
      expect((await all(k)).map((e) => e.title)).to.deep.equal(['two', 'one']);
      expect(await changesAfter(seq)).to.deep.equal([]);
    });

    it('answers 409 for a calendar collection', async () => {
      const r = await server.api.patch('/trackers/calendar/entries/batch', {
        items: [{ entryId: 'ent_00000000000000000000', title: 'x' }],
      });
      expect(r.status).to.equal(409);
    });
  });

  describe('DELETE /trackers/:key/entries/batch', () => {
    it('deletes 1 and 50 entries, logging one tracker.entry.deleted each', async () => {
      const k = await freshCollection();
      const made = (
        await server.api.post(`/trackers/${k}/entries/batch`, {
          items: Array.from({ length: 50 }, (_, i) => ({ title: `d${i}` })),
        })
      ).body.entries;
      const extra = (await server.api.post(`/trackers/${k}/entries`, { title: 'extra' })).body
        .entry;
      const seq = await lastSeq();
      const one = await server.api.request('DELETE', `/trackers/${k}/entries/batch`, {
        body: { entryIds: [extra.id] },
      });
      expect(one.status).to.equal(200);
      await conforms(server, one, 'delete', `${P}/entries/batch`);
      expect(one.body).to.deep.include({ ok: true, count: 1 });
      expect(one.body.entries[0]).to.include({ id: extra.id, title: 'extra' });
      const fifty = await server.api.request('DELETE', `/trackers/${k}/entries/batch`, {
        body: { entryIds: made.map((e: any) => e.id) },
      });
      expect(fifty.status).to.equal(200);
      expect(fifty.body.count).to.equal(50);
      expect(await all(k)).to.have.length(0);
      const log = await changesAfter(seq);
      expect(log).to.have.length(51);
      expect(log.every((c) => c.type === 'tracker.entry.deleted')).to.equal(true);
      expect(log.map((c) => c.object.id)).to.deep.equal([extra.id, ...made.map((e: any) => e.id)]);
    });

    it('refuses 0 and 51 ids and an empty id', async () => {
      const k = await freshCollection();
      const e = (await server.api.post(`/trackers/${k}/entries`, { title: 'x' })).body.entry;
      for (const [entryIds, path] of [
        [[], ['entryIds']],
        [Array.from({ length: 51 }, () => e.id), ['entryIds']],
        [
          [e.id, ''],
          ['entryIds', 1],
        ],
      ] as const) {
        const r = await server.api.request('DELETE', `/trackers/${k}/entries/batch`, {
          body: { entryIds },
        });
        expect(r.status).to.equal(400);
        expect(r.body.issues[0].path).to.deep.equal(path);
      }
      expect(await all(k)).to.have.length(1);
    });

    it('deletes nothing when one id is unknown (404)', async () => {
      const k = await freshCollection();
      const made = (
        await server.api.post(`/trackers/${k}/entries/batch`, {
          items: [{ title: 'a' }, { title: 'b' }],
        })
      ).body.entries;
      const seq = await lastSeq();
      const r = await server.api.request('DELETE', `/trackers/${k}/entries/batch`, {
        body: { entryIds: [made[0].id, 'ent_00000000000000000000', made[1].id] },
      });
      expect(r.status).to.equal(404);
      expect(r.body.issues).to.deep.equal([
        { path: ['entryIds', 1], message: `is not an entry of ${k}: ent_00000000000000000000` },
      ]);
      expect(await all(k)).to.have.length(2);
      expect(await changesAfter(seq)).to.deep.equal([]);
    });

    it('answers 409 for a calendar collection and 403 for a read-only key', async () => {
      const k = await freshCollection();
      const e = (await server.api.post(`/trackers/${k}/entries`, { title: 'x' })).body.entry;
      expect(
        (
          await server.api.request('DELETE', '/trackers/calendar/entries/batch', {
            body: { entryIds: [e.id] },
          })
        ).status,
      ).to.equal(409);
      const read = await server.key({ scopes: ['read'] });
      expect(
        (
          await server.api.request('DELETE', `/trackers/${k}/entries/batch`, {
            body: { entryIds: [e.id] },
            key: read,
          })
        ).status,
      ).to.equal(403);
      expect(await all(k)).to.have.length(1);
    });
  });
  describe('paging a search', () => {
    it('pages 23 matches out of 30 with limit 10 through nextCursor: 10, 10, 3, newest first, no repeats', async () => {
      const k = await freshCollection();
      const items = Array.from({ length: 30 }, (_, i) => ({
        title: i % 4 === 3 ? `Other ${i}` : `Garden task ${i}`,
      }));
      for (const item of items) await server.api.post(`/trackers/${k}/entries`, item);
      const expected = items
        .map((t) => t.title)
        .filter((t) => t.startsWith('Garden'))
        .reverse();
      expect(expected).to.have.length(23);
      const pages: string[][] = [];
      let cursor: string | undefined;
      do {
        const r = await server.api.get(
          `/trackers/${k}/entries?query=GARDEN&limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(r.status).to.equal(200);
        pages.push(r.body.entries.map((e: any) => e.title));
        cursor = r.body.nextCursor;
      } while (cursor && pages.length < 10);
      expect(pages.map((p) => p.length)).to.deep.equal([10, 10, 3]);
      expect(pages.flat()).to.deep.equal(expected);
    });
  });

  describe('an unknown collection', () => {
    it('answers 404 naming the collection on every entries endpoint, and writes nothing', async () => {
      const seq = await lastSeq();
      const calls: [string, string, unknown][] = [
        ['GET', '/trackers/no-such/entries', undefined],
        ['POST', '/trackers/no-such/entries', { title: 'x' }],
        ['PATCH', '/trackers/no-such/entries/ent_00000000000000000000', { title: 'x' }],
        ['DELETE', '/trackers/no-such/entries/ent_00000000000000000000', undefined],
        ['POST', '/trackers/no-such/entries/batch', { items: [{ title: 'x' }] }],
        [
          'PATCH',
          '/trackers/no-such/entries/batch',
          { items: [{ entryId: 'ent_00000000000000000000', title: 'x' }] },
        ],
        ['DELETE', '/trackers/no-such/entries/batch', { entryIds: ['ent_00000000000000000000'] }],
      ];
      for (const [method, path, body] of calls) {
        const r = await server.api.request(method, path, body === undefined ? {} : { body });
        expect(r.status, `${method} ${path}`).to.equal(404);
        expect(r.body).to.include({ ok: false, code: 'not_found' });
        expect(r.body.error, `${method} ${path}`).to.contain('no-such');
      }
      expect(await changesAfter(seq)).to.deep.equal([]);
    });
  });
});
