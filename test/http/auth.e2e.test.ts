import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { revokeKey } from '../../src/family/admin.js';

describe('API keys and scopes', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  it('answers 401 without a key, with a malformed key, with an unknown key and with a wrong secret', async () => {
    const keyId = server.apiKey.slice(3, 15);
    for (const key of [
      null,
      'nope',
      'hk_AAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB',
      `hk_${keyId}_${'x'.repeat(32)}`,
    ]) {
      const r = await server.api.get('/people', { key });
      expect(r.status, String(key)).to.equal(401);
      expect(r.body).to.include({ ok: false, code: 'unauthorized' });
    }
  });

  it('answers 401 at once for a revoked key', async () => {
    const key = await server.key({ scopes: ['read'] });
    expect((await server.api.get('/people', { key })).status).to.equal(200);
    await revokeKey(server.daemon.store, key.slice(3, 15), new Date());
    expect((await server.api.get('/people', { key })).status).to.equal(401);
  });

  it('answers 403 for another family, existing or not, without telling which', async () => {
    await server.family('neighbours');
    const other = await server.http.get('/api/v1/families/neighbours/people', {
      key: server.apiKey,
    });
    const missing = await server.http.get('/api/v1/families/nobody/people', { key: server.apiKey });
    expect(other.status).to.equal(403);
    expect(missing.status).to.equal(403);
    expect(other.body).to.deep.equal(missing.body);
  });

  it('lets a read key read but not write, and a write key write', async () => {
    const read = await server.key({ scopes: ['read'] });
    const write = await server.key({ scopes: ['write'] });
    const denied = await server.api.post('/people', { name: 'Ana' }, { key: read });
    expect(denied.status).to.equal(403);
    expect(denied.body).to.include({ code: 'forbidden' });
    expect(denied.body.error).to.match(/"write" scope/);
    expect((await server.api.get('/people', { key: read })).body.people).to.have.length(0);
    const made = await server.api.post('/people', { name: 'Ana' }, { key: write });
    expect(made.status).to.equal(201);
    expect(
      (await server.api.get('/people', { key: read })).body.people.map((p: any) => p.name),
    ).to.deep.equal(['Ana']);
  });

  it('stores only a hash of the secret', () => {
    const keyId = server.apiKey.slice(3, 15);
    const record = server.daemon.store.getKey(keyId)!;
    expect(JSON.stringify(record)).to.not.include(server.apiKey.slice(16));
    expect(record.secretHash).to.match(/^[0-9a-f]{64}$/);
  });
});
