import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { conforms } from '../helpers/contract.js';

describe('GET /api/v1/openapi.json', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(() => server.close());

  it('is served without a key as OpenAPI 3.1', async () => {
    const r = await server.http.get('/api/v1/openapi.json');
    expect(r.status).to.equal(200);
    expect(r.body.openapi).to.equal('3.1.0');
    expect(r.body.components.securitySchemes.apiKey).to.deep.equal({ type: 'apiKey', in: 'header', name: 'x-api-key' });
  });

  it('documents every route the router serves', async () => {
    const doc = (await server.http.get('/api/v1/openapi.json')).body;
    const missing: string[] = [];
    let count = 0;
    for (const layer of server.daemon.router.stack) {
      const path = String(layer.path).replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      for (const method of layer.methods.filter((m: string) => m !== 'HEAD')) {
        count++;
        if (!doc.paths[path]?.[method.toLowerCase()]) missing.push(`${method} ${path}`);
      }
    }
    expect(count).to.be.greaterThan(3);
    expect(missing).to.deep.equal([]);
  });

  it('shows limit defaults and an example body for every error answer, matching what the daemon sends', async () => {
    const doc = (await server.http.get('/api/v1/openapi.json')).body;
    const param = (path: string, name: string) => doc.paths[path].get.parameters.find((p: any) => p.name === name).schema;
    expect(param('/api/v1/families/{familySlug}/trackers/{collectionKey}/entries', 'limit')).to.include({ minimum: 1, maximum: 50, default: 20 });
    expect(param('/api/v1/families/{familySlug}/calendar/events', 'limit')).to.include({ minimum: 1, maximum: 50, default: 20 });
    expect(param('/api/v1/families/{familySlug}/changes', 'limit')).to.include({ minimum: 1, maximum: 500, default: 100 });
    // Every documented error answer carries an example; the examples are what the daemon says.
    const examples = new Map<string, any>();
    for (const item of Object.values<any>(doc.paths)) {
      for (const op of Object.values<any>(item)) {
        for (const [status, res] of Object.entries<any>(op.responses ?? {})) {
          const media = res.content?.['application/json'];
          if (Number(status) < 400 || media?.schema?.$ref !== '#/components/schemas/Error') continue;
          expect(media.example, `${op.operationId} ${status}`).to.be.an('object');
          examples.set(status, media.example);
        }
      }
    }
    const home = '/api/v1/families/home';
    const real: Record<string, Promise<any>> = {
      400: server.api.post('/trackers/chores/entries', { title: '' }),
      401: server.api.get('/people', { key: null }),
      403: server.api.post('/people', { name: 'A' }, { key: await server.key({ scopes: ['read'] }) }),
      404: server.api.patch('/trackers/chores/entries/ent_01jd8m7k2q9x4v5w6y7z8a9b0c', { title: 'x' }),
      409: server.api.post('/trackers', { name: 'Chores' }),
      413: server.api.post('/people', { name: 'x'.repeat(2_000_000) }),
      415: server.http.request('POST', `${home}/people`, { raw: 'name=A', contentType: 'text/plain', key: server.apiKey }),
      501: server.api.get('/notification-routines'),
    };
    for (const [status, pending] of Object.entries(real)) {
      const r = await pending;
      expect(r.status, status).to.equal(Number(status));
      const example = examples.get(status);
      expect(example, status).to.be.an('object');
      expect(example.code, status).to.equal(r.body.code);
      expect(Object.keys(example).sort(), status).to.deep.equal(Object.keys(r.body).sort());
      // The 501 sentence names its endpoint: each route carries its own (checked below).
      if (status !== '501') expect(example, status).to.deep.equal(r.body);
    }
  });

  it('gives each endpoint not built yet an example naming it, word for word what it answers', async () => {
    const doc = (await server.http.get('/api/v1/openapi.json')).body;
    for (const path of ['/notification-routines', '/calendar/external', '/webhook-destinations']) {
      const example = doc.paths[`/api/v1/families/{familySlug}${path}`].get.responses['501'].content['application/json'].example;
      const r = await server.api.get(path);
      expect(r.status, path).to.equal(501);
      expect(example, path).to.deep.equal(r.body);
    }
  });

  it('describes the error shape and the answers the service gives', async () => {
    const health = await server.http.get('/healthz');
    await conforms(server, health, 'get', '/healthz');
    const changes = await server.api.get('/changes');
    await conforms(server, changes, 'get', '/api/v1/families/{familySlug}/changes');
    const denied = await server.api.get('/changes', { key: null });
    await conforms(server, denied, 'get', '/api/v1/families/{familySlug}/changes');
  });
});

describe('endpoints of the contract not implemented yet', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(() => server.close());

  it('answer 501 not_implemented after the key and scope checks, and are documented as such', async () => {
    const cases: [string, string, unknown?][] = [
      ['GET', '/webhook-destinations'], ['POST', '/webhook-destinations', { name: 'ha', url: 'http://ha.local', eventTypes: [] }],
      ['POST', '/calendar/external', { name: 'School', url: 'https://school.example/cal.ics' }], ['GET', '/notification-routines'],
      ['GET', '/notifications?sinceMinutes=60'], ['POST', '/checks', { eventId: 'ent_x', leadHours: 2, task: 't' }], ['GET', '/calendar/external'],
    ];
    for (const [method, path, body] of cases) {
      const r = await server.api.request(method, path, body === undefined ? {} : { body });
      expect(r.status, `${method} ${path}`).to.equal(501);
      expect(r.body).to.include({ ok: false, code: 'not_implemented' });
      await conforms(server, r, method, `/api/v1/families/{familySlug}${path.split('?')[0]}`);
    }
    expect((await server.api.get('/webhook-destinations', { key: null })).status).to.equal(401);
    const read = await server.key({ scopes: ['read'] });
    expect((await server.api.get('/webhook-destinations', { key: read })).status).to.equal(403);
  });
});
