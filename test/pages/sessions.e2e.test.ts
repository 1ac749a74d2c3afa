/**
 * Page sessions are their own credential: a random `hs_…` id, taken
 * by the pages door alone (never as x-api-key, Basic or Bearer, nor as `hk_<its id>_<its
 * secret>`); ended with the key or device it was signed in with (CLI revoke, REST delete); at
 * most ten per key; counted in its own budget; a key's last use noted whatever door it came
 * through; and the pages' own refusals: another family's key id is 404, `..` never reaches
 * another route.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { formPost, formToken, oneSocket, sessionSet } from '../helpers/burst.js';
import { runCli } from '../helpers/child.js';
import { SESSIONS_PER_KEY } from '../../src/family/keys.js';

describe('page sessions as a credential of their own', function () {
  this.timeout(30_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer({
      overrides: { server: { publicUrl: null }, rateLimit: { publicPerMinute: 40 } },
    });
  });
  after(() => server.close());

  /** Signs in with a key on the sign-in page; answers the session cookie's value. */
  async function signIn(key: string): Promise<string> {
    const token = await formToken(`${server.url}/signin`);
    const r = await oneSocket(`${server.url}/signin`, formPost(token, { key }));
    expect(r.status, r.text).to.equal(303);
    const s = sessionSet(r);
    expect(s).to.match(/^hs_[0-9A-Za-z]{12}_[0-9A-Za-z]{32}$/);
    return s;
  }
  const page = (session: string, path = '/') =>
    oneSocket(`${server.url}${path}`, { headers: { cookie: `ho_session=${session}` } });
  /** The CSRF token a signed-in page's forms carry. */
  async function csrfOf(session: string): Promise<string> {
    const r = await page(session, '/devices');
    return /name="csrf" value="([^"]+)"/.exec(r.text)![1];
  }
  const pagePost = async (session: string, path: string, fields: Record<string, string> = {}) =>
    oneSocket(`${server.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `ho_session=${session}`,
      },
      body: new URLSearchParams({ csrf: await csrfOf(session), ...fields }).toString(),
    });

  it('is refused as a key on REST, CalDAV and MCP, in any header and in the key shape', async () => {
    const session = await signIn(server.apiKey);
    expect((await page(session)).status).to.equal(200);
    const [, id, secret] = session.split('_');
    for (const text of [session, `hk_${id}_${secret}`]) {
      const rest = await server.api.get('/people', { key: text });
      expect(rest.status, text).to.equal(401);
      const basic = Buffer.from(`home:${text}`).toString('base64');
      const dav = await server.http.request('PROPFIND', '/dav/home/', {
        headers: { authorization: `Basic ${basic}`, depth: '0' },
      });
      expect(dav.status, text).to.equal(401);
      const mcp = await server.http.post(
        '/mcp',
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        {
          headers: {
            authorization: `Bearer ${text}`,
            accept: 'application/json, text/event-stream',
          },
        },
      );
      expect(mcp.status, text).to.equal(401);
    }
    // …while the pages act through REST with it.
    const people = await page(session, '/people');
    expect(people.status).to.equal(200);
  });

  it('ends when its key is revoked on the command line', async () => {
    const key = await server.key({ name: 'Revoked by CLI', scopes: ['read', 'write', 'admin'] });
    const session = await signIn(key);
    expect((await page(session)).status).to.equal(200);
    const keyId = key.split('_')[1];
    const r = await runCli(['key', 'revoke', keyId, '--data-dir', server.dataDir]);
    expect(r.code, r.stderr).to.equal(0);
    // The same write ended the session: its record says so at once.
    const sessionId = session.split('_')[1];
    expect(server.daemon.store.getKey(sessionId)!.revokedAt).to.be.a('string');
    const after = await page(session);
    expect(after.status).to.equal(303);
    expect(after.headers.location).to.equal('/signin');
  });

  it('ends when its device is deleted through REST', async () => {
    const made = await server.api.post('/devices', { name: 'Tablet', scopes: ['read', 'write'] });
    const session = await signIn(made.body.apiKey as string);
    expect((await page(session)).status).to.equal(200);
    const del = await server.api.delete(`/devices/${made.body.device.id as string}`);
    expect(del.status).to.equal(200);
    expect(server.daemon.store.getKey(session.split('_')[1])!.revokedAt).to.be.a('string');
    expect((await page(session)).status).to.equal(303);
  });

  it(`keeps at most ${SESSIONS_PER_KEY} per key, ending the oldest first`, async () => {
    const key = await server.key({ name: 'Busy', scopes: ['read'] });
    const sessions: string[] = [];
    for (let i = 0; i < SESSIONS_PER_KEY + 2; i++) sessions.push(await signIn(key));
    const live = server.daemon.store
      .listKeys()
      .filter((k) => k.derivedFrom === key.split('_')[1] && !k.revokedAt)
      .map((k) => k.id);
    expect(live).to.have.length(SESSIONS_PER_KEY);
    expect(live).to.not.include(sessions[0].split('_')[1]);
    expect(live).to.not.include(sessions[1].split('_')[1]);
    expect((await page(sessions[0])).status).to.equal(303);
    expect((await page(sessions.at(-1)!)).status).to.equal(200);
  });

  it('notes a CalDAV-only device’s last use on /devices', async () => {
    const made = await server.api.post('/devices', { name: 'CalDAV phone', scopes: ['read'] });
    const basic = Buffer.from(`home:${made.body.apiKey as string}`).toString('base64');
    const dav = await server.http.request('PROPFIND', '/dav/home/', {
      headers: { authorization: `Basic ${basic}`, depth: '0' },
    });
    expect(dav.status).to.equal(207);
    const id = made.body.device.id as string;
    const deadline = Date.now() + 5000;
    let used: string | null = null;
    while (!used && Date.now() < deadline) {
      const list = await server.api.get('/devices');
      used = (list.body.devices as { id: string; lastUsedAt: string | null }[]).find(
        (d) => d.id === id,
      )!.lastUsedAt;
      if (!used) await new Promise((r) => setImmediate(r));
    }
    expect(used).to.be.a('string');
  });

  it('answers 404 for another family’s key id, and never lets `..` reach another route', async () => {
    const other = await server.family('other');
    const otherKeyId = other.key.split('_')[1];
    const session = await signIn(server.apiKey);
    const r = await pagePost(session, `/keys/${otherKeyId}/revoke`);
    expect(r.status).to.equal(404);
    expect(server.daemon.store.getKey(otherKeyId)!.revokedAt).to.equal(null);
    const before = (await server.api.get('')).body;
    for (const path of ['/displays/../touch', '/displays/%2e%2e/touch', '/displays/.%2E/touch']) {
      const t = await pagePost(session, path);
      expect(t.status, path).to.be.oneOf([404]);
    }
    expect((await server.api.get('')).body).to.deep.equal(before);
  });

  it('counts signed-in pages in the session’s budget, not the address’s anonymous one', async () => {
    const session = await signIn(server.apiKey);
    // Spend the address's anonymous budget (40 a minute here) on the sign-in page…
    let last = 0;
    for (let i = 0; i < 45 && last !== 429; i++)
      last = (await oneSocket(`${server.url}/signin`)).status;
    expect(last).to.equal(429);
    // …the signed-in admin still gets the pages, and signs out.
    expect((await page(session, '/people')).status).to.equal(200);
    const out = await pagePost(session, '/signout');
    expect(out.status).to.equal(303);
    expect(out.headers.location).to.equal('/signin');
  });
});
