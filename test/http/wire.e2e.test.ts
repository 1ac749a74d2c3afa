import { expect } from 'chai';
import { Writable } from 'node:stream';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createLogger } from '../../src/logger.js';

describe('wire conventions', () => {
  let server: TestServer;
  const lines: Record<string, unknown>[] = [];
  before(async () => {
    const sink = new Writable({
      write(chunk, _enc, cb) {
        for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l));
        cb();
      },
    });
    server = await startTestServer({
      logger: createLogger('info', sink),
      overrides: { server: { bodyLimitBytes: 2048 } },
    });
  });
  after(() => server?.close());

  describe('GET /healthz', () => {
    it('answers without a key', async () => {
      const r = await server.http.get('/healthz');
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ ok: true, status: 'ok' });
    });
  });

  describe('unknown paths and methods', () => {
    it('answers an unknown path with a JSON 404', async () => {
      const r = await server.http.get('/nothing/here');
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.include({ ok: false, code: 'not_found' });
      expect(r.body.error).to.match(/GET \/nothing\/here/);
    });

    it('answers a known path with a wrong method with 405 and Allow', async () => {
      const r = await server.api.request('PUT', '/people', { body: { name: 'x' } });
      expect(r.status).to.equal(405);
      expect(r.body.code).to.equal('method_not_allowed');
      expect(r.headers.get('allow')).to.include('GET').and.include('POST');
    });
  });

  describe('request bodies', () => {
    it('refuses malformed JSON with 400 and writes nothing', async () => {
      const r = await server.api.request('POST', '/people', {
        raw: '{"name": "Ana",',
        contentType: 'application/json',
      });
      expect(r.status).to.equal(400);
      expect(r.body).to.include({ ok: false, code: 'invalid_request' });
      expect(r.body.error).to.match(/not valid JSON/);
      expect((await server.api.get('/people')).body.people).to.have.length(0);
    });

    it('refuses a body that is not JSON with 415', async () => {
      const r = await server.api.request('POST', '/people', {
        raw: 'name=Ana',
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(r.status).to.equal(415);
      expect(r.body.code).to.equal('unsupported_media_type');
    });

    it('refuses a body over the limit with 413', async () => {
      const r = await server.api.post('/people', { name: 'x'.repeat(3000) });
      expect(r.status).to.equal(413);
      expect(r.body.code).to.equal('payload_too_large');
    });

    it('accepts a body just under the limit (the limit is on bytes, not on the field)', async () => {
      const r = await server.api.post('/people', { name: 'Ana', familiarName: 'a'.repeat(150) });
      expect(r.status).to.equal(201);
    });

    it('names unknown top-level fields', async () => {
      const r = await server.api.post('/people', { name: 'Ana', nmae: 'typo', kidn: 'child' });
      expect(r.status).to.equal(400);
      expect(r.body.code).to.equal('invalid_request');
      expect(r.body.issues).to.deep.include({ path: ['nmae'], message: 'is not a known field' });
      expect(r.body.issues).to.deep.include({ path: ['kidn'], message: 'is not a known field' });
    });

    it('names a missing required field and a query parameter it does not know', async () => {
      const r = await server.api.post('/people', {});
      expect(r.status).to.equal(400);
      expect(r.body.issues).to.deep.include({ path: ['name'], message: 'is required' });
      const q = await server.api.get('/changes?aftr=1');
      expect(q.status).to.equal(400);
      expect(q.body.issues[0].path).to.deep.equal(['query', 'aftr']);
      const l = await server.api.get('/changes?limit=501');
      expect(l.status).to.equal(400);
      expect(l.body.issues[0].path).to.deep.equal(['query', 'limit']);
    });
  });

  describe('request ids and logs', () => {
    it('echoes x-request-id and logs one line per request without the key', async () => {
      const r = await server.api.get('/people', { headers: { 'x-request-id': 'req-abc.123' } });
      expect(r.headers.get('x-request-id')).to.equal('req-abc.123');
      const line = lines.find((l) => l.requestId === 'req-abc.123');
      expect(line).to.include({
        method: 'GET',
        route: '/api/v1/families/:familySlug/people',
        status: 200,
        family: 'home',
      });
      expect(line!.keyId).to.be.a('string').with.length(12);
      expect(line!.durationMs).to.be.a('number');
      expect(JSON.stringify(lines)).to.not.include(server.apiKey.slice(16));
      const generated = await server.http.get('/healthz');
      expect(generated.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
    });
  });

  describe('GET /changes', () => {
    it('returns 100 change-log records when no limit is given, and 500 at most', async () => {
      const start = (await server.api.get('/changes?after=0&limit=500')).body.nextAfter as number;
      const made = await server.api.post('/trackers/chores/entries/batch', {
        items: Array.from({ length: 50 }, (_, i) => ({ title: `c${i}` })),
      });
      expect(made.status).to.equal(201);
      await server.api.post('/trackers/chores/entries/batch', {
        items: Array.from({ length: 50 }, (_, i) => ({ title: `d${i}` })),
      });
      await server.api.post('/trackers/chores/entries/batch', {
        items: Array.from({ length: 10 }, (_, i) => ({ title: `e${i}` })),
      });
      const page = await server.api.get(`/changes?after=${start}`);
      expect(page.body.changes).to.have.length(100);
      expect(page.body.changes.map((c: any) => c.seq)).to.deep.equal(
        Array.from({ length: 100 }, (_, i) => start + 1 + i),
      );
      expect(page.body.nextAfter).to.equal(start + 100);
      expect(
        (await server.api.get(`/changes?after=${page.body.nextAfter}`)).body.changes,
      ).to.have.length(10);
      expect((await server.api.get('/changes?limit=501')).status).to.equal(400);
      expect((await server.api.get('/changes?limit=0')).status).to.equal(400);
    });

    it('returns change-log records in order from after, with nextAfter', async () => {
      const before = (await server.api.get('/changes?after=0&limit=500')).body.nextAfter as number;
      const a = await server.api.post('/people', { name: 'Bo' });
      const b = await server.api.patch(`/people/${a.body.person.id}`, { name: 'Bob' });
      expect(b.status).to.equal(200);
      const r = await server.api.get(`/changes?after=${before}&limit=1`);
      expect(r.body.changes).to.have.length(1);
      expect(r.body.changes[0]).to.include({ seq: before + 1, type: 'person.created' });
      expect(r.body.changes[0].actor.keyId).to.be.a('string');
      expect(r.body.changes[0].object).to.include({ id: a.body.person.id, name: 'Bo' });
      const r2 = await server.api.get(`/changes?after=${r.body.nextAfter}`);
      expect(r2.body.changes[0]).to.include({ seq: before + 2, type: 'person.updated' });
      expect(r2.body.changes[0].previous).to.include({ name: 'Bo' });
      expect(r2.body.changes[0].object).to.include({ name: 'Bob' });
      const r3 = await server.api.get(`/changes?after=${r2.body.nextAfter}`);
      expect(r3.body).to.deep.equal({ ok: true, changes: [], nextAfter: before + 2 });
    });
  });
});
