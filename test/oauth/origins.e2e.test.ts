/**
 * OAuth and /mcp when the daemon has no server.publicUrl and is reached at more than one
 * address (src/addresses.ts): a grant is bound to the `/mcp` of the origin it was approved at
 * (RFC 8707), so its tokens work there and not at another of the daemon's addresses; /mcp's
 * DNS-rebinding guard takes the machine's own addresses; a tool's answer builds its links on
 * the address the assistant used, and nobody outside can claim that address for a request.
 */
import { expect } from 'chai';
import { networkInterfaces } from 'node:os';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { rawRequest, type RawReply } from '../helpers/rawHttp.js';
import { hiddenFields } from '../helpers/oauth.js';

const CALLBACK = 'http://127.0.0.1:9/callback';
const VERIFIER = 'v'.repeat(43);

describe('OAuth and /mcp at each of the daemon’s addresses (no publicUrl)', function () {
  this.timeout(30_000);
  let server: TestServer;
  let A: string;
  let B: string;
  before(async () => {
    server = await startTestServer({ overrides: { server: { publicUrl: null } } });
    A = `127.0.0.1:${server.daemon.port}`;
    B = `localhost:${server.daemon.port}`;
  });
  after(() => server?.close());

  const at = (
    host: string,
    path: string,
    o: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<RawReply> =>
    rawRequest(`${server.url}${path}`, { ...o, headers: { host, ...o.headers } });
  const form = (host: string, path: string, fields: Record<string, string>) =>
    at(host, path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  const mcp = (host: string, auth: string, body: unknown) =>
    at(host, '/mcp', {
      method: 'POST',
      headers: {
        authorization: auth,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify(body),
    });
  const toolsList = { jsonrpc: '2.0', id: 1, method: 'tools/list' };

  /** Register, approve on the consent page and exchange the code, all at `host`. */
  async function tokensAt(host: string) {
    const reg = await at(host, '/oauth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Origins',
        redirect_uris: [CALLBACK],
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(reg.status, reg.text).to.equal(201);
    const clientId = reg.json.client_id as string;
    const challenge = Buffer.from(
      await crypto.subtle.digest('SHA-256', new TextEncoder().encode(VERIFIER)),
    ).toString('base64url');
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: CALLBACK,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 's',
      scope: 'household:read',
    });
    const page = await at(host, `/oauth/authorize?${q.toString()}`);
    expect(page.status, page.text).to.equal(200);
    const approved = await form(host, '/oauth/authorize', {
      ...hiddenFields(page.text),
      api_key: server.apiKey,
      grant_scope: 'read',
      decision: 'approve',
    });
    expect(approved.status, approved.text).to.equal(303);
    const back = new URL(String(approved.headers.location));
    const token = await form(host, '/oauth/token', {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      code_verifier: VERIFIER,
      redirect_uri: CALLBACK,
      client_id: clientId,
    });
    expect(token.status, token.text).to.equal(200);
    return { clientId, iss: back.searchParams.get('iss'), ...token.json };
  }

  it('keeps a token minted at one origin working there, and refuses it at another of its addresses', async () => {
    const t = await tokensAt(A);
    expect(t.iss).to.equal(`http://${A}`);
    const here = await mcp(A, `Bearer ${t.access_token}`, toolsList);
    expect(here.status, here.text).to.equal(200);
    expect(here.json.result.tools.length).to.be.greaterThan(0);
    const there = await mcp(B, `Bearer ${t.access_token}`, toolsList);
    expect(there.status).to.equal(401);
    expect(there.headers['www-authenticate']).to.equal(
      `Bearer error="invalid_token", resource_metadata="http://${B}/.well-known/oauth-protected-resource/mcp"`,
    );
    // A refresh at the origin of the grant keeps working there.
    const refreshed = await form(A, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: t.refresh_token,
      client_id: t.clientId,
    });
    expect(refreshed.status, refreshed.text).to.equal(200);
    expect((await mcp(A, `Bearer ${refreshed.json.access_token}`, toolsList)).status).to.equal(200);
    // An API key works at every address, as before.
    expect((await mcp(B, `Bearer ${server.apiKey}`, toolsList)).status).to.equal(200);
  });

  it('refuses, at one origin, an authorization request for the resource of another', async () => {
    const reg = await at(B, '/oauth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' }),
    });
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: reg.json.client_id,
      redirect_uri: CALLBACK,
      code_challenge: 'c'.repeat(43),
      code_challenge_method: 'S256',
      resource: `http://${A}/mcp`,
    });
    const r = await at(B, `/oauth/authorize?${q.toString()}`);
    // A client nobody granted yet is told on the daemon's own page, not at its redirect.
    expect(r.status).to.equal(400);
    expect(r.headers.location).to.equal(undefined);
    expect(r.text).to.include(`(invalid_target): resource must be http://${B}/mcp`);
  });

  it("lets /mcp answer at this machine's interface addresses and refuses a foreign name", async () => {
    const lan = Object.values(networkInterfaces())
      .flatMap((i) => i ?? [])
      .find((i) => !i.internal && i.family === 'IPv4');
    const key = `Bearer ${server.apiKey}`;
    if (lan) {
      const r = await mcp(`${lan.address}:18080`, key, toolsList);
      expect(r.status, r.text).to.equal(200);
    }
    const evil = await mcp('attacker.example', key, toolsList);
    expect(evil.status).to.equal(403);
    // /mcp answers in its own form: a JSON-RPC error object (the message was not read).
    expect(evil.json.error.data.code).to.equal('forbidden');
    expect(evil.json.error.message).to.match(/^The Host of this request does not name this server/);
    const origin = await at(A, '/mcp', {
      method: 'POST',
      headers: {
        authorization: key,
        origin: 'http://attacker.example',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify(toolsList),
    });
    expect(origin.status).to.equal(403);
  });

  it('builds the links in a tool’s answer on the address the assistant used', async () => {
    const plan = await server.api.post('/plans', { title: 'Picnic' });
    await server.api.post(`/plans/${plan.body.planId}/share`, { enabled: true });
    const token = (await server.api.get(`/plans/${plan.body.planId}`)).body.shareUrl.split(
      '/p/',
    )[1];
    const getPlan = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'get_plan', arguments: { planId: plan.body.planId } },
    };
    for (const host of [A, B]) {
      const r = await mcp(host, `Bearer ${server.apiKey}`, getPlan);
      expect(r.status, r.text).to.equal(200);
      expect(r.json.result.structuredContent.shareUrl).to.equal(`http://${host}/p/${token}`);
    }
  });

  it("ignores an origin claimed from outside without this process's proof", async () => {
    const r = await at(A, '/api/v1/families/home/displays', {
      method: 'POST',
      headers: {
        'x-api-key': server.apiKey,
        'content-type': 'application/json',
        'x-household-origin': 'https://evil.example',
        'x-household-origin-proof': 'A'.repeat(43),
      },
      body: JSON.stringify({ name: 'Hall' }),
    });
    expect(r.status, r.text).to.equal(201);
    expect(r.json.url).to.match(new RegExp(`^http://${A.replace(/\./g, '\\.')}/display/`));
  });
});
