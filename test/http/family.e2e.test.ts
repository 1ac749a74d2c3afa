import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { conforms } from '../helpers/contract.js';

const TEMPLATE = '/api/v1/families/{familySlug}';

describe('GET /api/v1/families/:familySlug', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ timezone: 'Europe/Berlin' });
  });
  after(() => server?.close());

  const keyId = (apiKey: string) => /^hk_([0-9A-Za-z]{12})_/.exec(apiKey)![1];

  it('answers the family and the calling key, for a key of any scope', async () => {
    const person = (await server.api.post('/people', { name: 'Ana' })).body.person.id;
    const cases = [
      { scopes: ['read'] as const, name: 'kitchen tablet', personId: null },
      { scopes: ['write'] as const, name: "Ana's phone", personId: person },
      { scopes: ['admin'] as const, name: 'home assistant', personId: null },
    ];
    for (const c of cases) {
      const key = await server.key({ scopes: [...c.scopes], name: c.name, personId: c.personId });
      const r = await server.api.get('', { key });
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(r.body).to.deep.equal({
        ok: true,
        family: {
          slug: 'home',
          name: 'Home',
          timezone: 'Europe/Berlin',
          location: null,
          locale: 'en',
        },
        key: { id: keyId(key), name: c.name, scopes: [...c.scopes], personId: c.personId },
      });
      // Nothing secret: not the key, not its hash.
      expect(r.text).to.not.contain(key.split('_')[2]);
      expect(r.text).to.not.match(/secret|hash/i);
      await conforms(server, r, 'get', TEMPLATE);
    }
  });

  it('tells two families and two keys apart', async () => {
    const other = await server.family('cabin', { timezone: 'America/New_York' });
    const r = await other.client.get('');
    expect(r.body.family).to.deep.equal({
      slug: 'cabin',
      name: 'cabin',
      timezone: 'America/New_York',
      location: null,
      locale: 'en',
    });
    expect(r.body.key.id).to.equal(keyId(other.key));
    expect((await server.api.get('')).body.key.id).to.equal(keyId(server.apiKey));
  });

  it('refuses no key (401), a key of another family and an unknown family (403)', async () => {
    const none = await server.api.get('', { key: null });
    expect(none.status).to.equal(401);
    await conforms(server, none, 'get', TEMPLATE);
    const other = await server.family('neighbours');
    const foreign = await server.http.get('/api/v1/families/home', { key: other.key });
    expect(foreign.status).to.equal(403);
    expect(foreign.body).to.deep.equal({
      ok: false,
      error: 'This API key does not belong to that family',
      code: 'forbidden',
    });
    await conforms(server, foreign, 'get', TEMPLATE);
    const unknown = await server.http.get('/api/v1/families/nobody', { key: server.apiKey });
    expect(unknown.status).to.equal(403);
  });

  it('refuses query parameters it does not take, naming them', async () => {
    const r = await server.api.get('?verbose=1');
    expect(r.status).to.equal(400);
    expect(r.body.issues).to.deep.equal([
      { path: ['query', 'verbose'], message: 'is not a known query parameter' },
    ]);
  });
});
