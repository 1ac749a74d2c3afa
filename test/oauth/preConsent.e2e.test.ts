/**
 * `GET /oauth/authorize` before anyone consented (RFC 9700 §4.11.2, RFC 6749 §4.1.2.1): anyone
 * may register an https redirect, so an error in a request of a client nobody granted is shown
 * on the daemon's own page — never a redirect to the registered address. A client that holds a
 * grant of this daemon (an admin trusted its redirect) gets the RFC's error redirect. Query
 * parameters are read without prototype lookups: a duplicate is refused naming it, a
 * prototype-named parameter is an unknown parameter like any other.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';
import {
  approvedGrant,
  authorizeUrl,
  hiddenFields,
  redirectedTo,
  registerClient,
} from '../helpers/oauth.js';

describe('GET /oauth/authorize: errors before consent', () => {
  const clock = new FakeClock('2026-11-22T08:30:00.000Z');
  let server: TestServer;
  const open = (url: string) => fetch(url, { redirect: 'manual' });

  before(async () => {
    server = await startTestServer({ now: clock.now });
  });
  after(() => server?.close());

  it("shows a never-granted client's bad request on our own page: no Location, the error named", async () => {
    const clientId = await registerClient(server.url, 'Evil redirector');
    const cases: [Record<string, string>, string][] = [
      [{ response_type: 'x' }, 'response_type must be code'],
      [{ code_challenge: '' }, 'code_challenge is required'],
      [{ code_challenge_method: 'plain' }, 'code_challenge_method must be S256'],
      [{ scope: 'household:everything' }, 'unknown scope household:everything'],
      [{ resource: 'https://other.example/mcp' }, 'resource must be'],
    ];
    for (const [over, message] of cases) {
      const r = await open(await authorizeUrl(server.url, clientId, over));
      expect(r.status, JSON.stringify(over)).to.equal(400);
      expect(r.headers.get('location'), JSON.stringify(over)).to.equal(null);
      expect(r.headers.get('content-type')).to.match(/^text\/html/);
      expect(r.headers.get('content-security-policy')).to.contain("form-action 'none'");
      const html = await r.text();
      expect(html).to.contain(message);
      expect(html).to.not.contain('127.0.0.1:9');
    }
  });

  it('sends the RFC error redirect to a client that holds a grant, with the state and issuer', async () => {
    const grant = await approvedGrant(server.url, server.apiKey, { scope: 'read' });
    const r = await open(
      await authorizeUrl(server.url, grant.clientId, { response_type: 'token' }),
    );
    expect(r.status).to.equal(303);
    const back = redirectedTo(r);
    expect(`${back.origin}${back.pathname}`).to.equal('http://127.0.0.1:9/callback');
    expect(Object.fromEntries(back.searchParams)).to.include({
      error: 'unsupported_response_type',
      state: 's1',
      iss: 'http://share.test',
    });
  });

  it('goes back to the page once the only grant is revoked', async () => {
    const grant = await approvedGrant(server.url, server.apiKey, { scope: 'read' });
    const grants = (await server.api.get('/oauth-grants')).body.grants as any[];
    const id = grants.find((g) => g.clientId === grant.clientId).id as string;
    expect((await server.api.delete(`/oauth-grants/${id}`)).status).to.equal(200);
    const r = await open(
      await authorizeUrl(server.url, grant.clientId, { code_challenge_method: 'plain' }),
    );
    expect(r.status).to.equal(400);
    expect(r.headers.get('location')).to.equal(null);
  });

  it('refuses a duplicate parameter naming it, prototype names included, without a redirect', async () => {
    const clientId = await registerClient(server.url);
    const url = await authorizeUrl(server.url, clientId);
    for (const dup of [
      'state=s2',
      'client_id=x',
      '__proto__=a&__proto__=b',
      'constructor=a&constructor=b',
    ]) {
      const r = await open(`${url}&${dup}`);
      expect(r.status, dup).to.equal(400);
      expect(r.headers.get('location'), dup).to.equal(null);
      const name = dup.split('=')[0];
      expect(await r.text(), dup).to.contain(`The parameter ${name} is given twice`);
    }
  });

  it('treats a prototype-named parameter given once as unknown: the consent page opens as usual', async () => {
    const clientId = await registerClient(server.url);
    const url = await authorizeUrl(server.url, clientId);
    for (const extra of ['__proto__=x', 'constructor=x', 'toString=x', 'hasOwnProperty=x']) {
      const r = await open(`${url}&${extra}`);
      expect(r.status, extra).to.equal(200);
      const fields = hiddenFields(await r.text());
      expect(fields, extra).to.include({ client_id: clientId, state: 's1' });
      expect(Object.keys(fields), extra).to.not.include(extra.split('=')[0]);
    }
  });

  it('reads a POSTed form the same way: a prototype-named field does not change the answer', async () => {
    const clientId = await registerClient(server.url);
    const page = await fetch(await authorizeUrl(server.url, clientId));
    const form = new URLSearchParams({
      ...hiddenFields(await page.text()),
      api_key: server.apiKey,
      grant_scope: 'read',
      decision: 'approve',
    });
    form.append('__proto__', 'x');
    const r = await fetch(`${server.url}/oauth/authorize`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
    });
    expect(r.status).to.equal(303);
    expect(redirectedTo(r).searchParams.get('code')).to.match(/^hoc_/);
  });
});
