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
      ['POST', '/calendar/external', { name: 'School', url: 'https://school.example/cal.ics' }], ['GET', '/weather?location=Berlin'],
      ['GET', '/notifications?sinceMinutes=60'], ['POST', '/checks', { eventId: 'ent_x', leadHours: 2, task: 't' }], ['GET', '/context'],
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
