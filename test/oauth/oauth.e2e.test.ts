/**
 * MCP authorization end to end: the MCP SDK's own OAuth client, given only the address of
 * /mcp behind a reverse proxy (with and without a path prefix), discovers, registers,
 * authorizes with PKCE (the consent form posted as a browser would), gets tokens, lists
 * tools, writes as the approving admin's person, and refreshes; then what must fail does.
 */
import { expect } from 'chai';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';
import {
  MemoryProvider,
  consent,
  postForm,
  redirectedTo,
  startProxy,
  type Proxy,
} from '../helpers/oauth.js';

const CALLBACK = 'http://127.0.0.1:9/callback';

async function connect(mcpUrl: string, provider: MemoryProvider): Promise<McpClient> {
  const client = new McpClient({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }),
  );
  return client;
}

/** The SDK's flow up to the redirect to the consent page; answers the transport to finish it. */
async function startFlow(
  mcpUrl: string,
  provider: MemoryProvider,
): Promise<StreamableHTTPClientTransport> {
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
  const client = new McpClient({ name: 'oauth-test', version: '1.0.0' });
  let failure: unknown;
  try {
    await client.connect(transport);
  } catch (err) {
    failure = err;
  }
  expect(failure).to.be.instanceOf(UnauthorizedError);
  expect(provider.authUrl, 'the SDK was sent to the consent page').to.not.equal(undefined);
  return transport;
}

for (const prefix of ['', '/household']) {
  describe(`MCP OAuth flow with the SDK client behind a proxy${prefix ? `, publicUrl under ${prefix}` : ''}`, () => {
    const clock = new FakeClock('2026-11-20T10:00:00.000Z');
    let proxy: Proxy;
    let server: TestServer;
    let base: string;
    before(async () => {
      proxy = await startProxy(prefix);
      base = proxy.url + prefix;
      server = await startTestServer({
        now: clock.now,
        overrides: { server: { publicUrl: base } },
      });
      proxy.target = server.url;
    });
    after(async () => {
      await server.close();
      await proxy.close();
    });

    it('discovers, registers, authorizes with PKCE, lists tools, writes as the approving person, refreshes with rotation', async () => {
      const person = (await server.api.post('/people', { name: 'Ana', kind: 'adult' })).body.person
        .id;
      const adminOfAna = await server.key({
        scopes: ['admin'],
        personId: person,
        name: 'Ana admin',
      });
      const provider = new MemoryProvider(CALLBACK);
      const transport = await startFlow(`${base}/mcp`, provider);

      // What the SDK found and asked for.
      const auth = provider.authUrl!;
      expect(`${auth.origin}${auth.pathname}`).to.equal(`${base}/oauth/authorize`);
      expect(auth.searchParams.get('code_challenge_method')).to.equal('S256');
      expect(auth.searchParams.get('resource')).to.equal(`${base}/mcp`);
      expect(auth.searchParams.get('scope')).to.equal('household:read household:write');
      expect(provider.info?.client_id).to.match(/^mcp_/);
      if (prefix)
        expect(proxy.requests).to.include(`GET /.well-known/oauth-authorization-server${prefix}`);

      const answer = await consent(auth, adminOfAna, { scope: 'write' });
      expect(answer.status).to.equal(303);
      const back = redirectedTo(answer);
      expect(`${back.origin}${back.pathname}`).to.equal(CALLBACK);
      expect(back.searchParams.get('state')).to.equal('state-Ünïcode &amp; 42');
      expect(back.searchParams.get('iss')).to.equal(base);
      await transport.finishAuth(back.searchParams.get('code')!);
      const first = provider.saved!;
      expect(first.access_token).to.match(/^hoa_/);
      expect(first.scope).to.equal('household:read household:write');

      const client = await connect(`${base}/mcp`, provider);
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).to.include.members(['list_collections', 'create_entry']);
      const made = await client.callTool({
        name: 'create_entry',
        arguments: { collectionKey: 'chores', title: 'Water the plants' },
      });
      expect(made.isError).to.not.equal(true);

      // The change is the approving admin's person's, through the grant.
      const grants = (await server.api.get('/oauth-grants')).body.grants;
      expect(grants).to.have.length(1);
      expect(grants[0]).to.include({
        clientName: 'Test assistant',
        personId: person,
        resource: `${base}/mcp`,
        revokedAt: null,
      });
      const changes = (await server.api.get('/changes?after=0&limit=500')).body.changes as any[];
      const created = changes.find((c) => c.type === 'tracker.entry.created');
      expect(created.actor).to.deep.equal({
        keyId: grants[0].approvedByKeyId,
        personId: person,
        grantId: grants[0].id,
      });
      expect(changes.find((c) => c.type === 'oauth_grant.created').object.id).to.equal(
        grants[0].id,
      );
      await client.close();

      // An hour later the access token is stale: the SDK refreshes it on the 401, rotated.
      clock.advance(3_601_000);
      const again = await connect(`${base}/mcp`, provider);
      expect((await again.listTools()).tools.length).to.be.greaterThan(5);
      await again.close();
      expect(provider.saved!.refresh_token).to.not.equal(first.refresh_token);
      expect(provider.saved!.access_token).to.not.equal(first.access_token);

      // The spent refresh token, presented again, gives a thief away: the grant goes.
      const replay = await postForm(`${base}/oauth/token`, {
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token!,
        client_id: provider.info!.client_id,
      });
      expect(replay.status).to.equal(400);
      expect(replay.body.error).to.equal('invalid_grant');
      const mcp = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${provider.saved!.access_token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(mcp.status).to.equal(401);
      expect(mcp.headers.get('www-authenticate')).to.contain('error="invalid_token"');
      expect((await server.api.get('/oauth-grants')).body.grants[0].revokedAt).to.be.a('string');
    });

    it('answers POST /mcp without credentials with 401 naming the resource metadata, which names the authorization server', async () => {
      const res = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).to.equal(401);
      const header = res.headers.get('www-authenticate')!;
      expect(header).to.equal(
        `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
      );
      const prm = (await (
        await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)
      ).json()) as any;
      expect(prm).to.include({ resource: `${base}/mcp` });
      expect(prm.authorization_servers).to.deep.equal([base]);
      const inserted = new URL(`/.well-known/oauth-authorization-server${prefix}`, base);
      const asm = (await (await fetch(inserted)).json()) as any;
      expect(asm).to.include({
        issuer: base,
        token_endpoint: `${base}/oauth/token`,
        registration_endpoint: `${base}/oauth/register`,
        revocation_endpoint: `${base}/oauth/revoke`,
      });
      expect(asm.code_challenge_methods_supported).to.deep.equal(['S256']);
      expect(asm.grant_types_supported).to.deep.equal(['authorization_code', 'refresh_token']);
      expect(asm.scopes_supported).to.deep.equal(['household:read', 'household:write']);
    });
  });
}

describe('MCP OAuth: what must fail', () => {
  const clock = new FakeClock('2026-11-20T10:00:00.000Z');
  let proxy: Proxy;
  let server: TestServer;
  let base: string;
  before(async () => {
    proxy = await startProxy();
    base = proxy.url;
    server = await startTestServer({ now: clock.now, overrides: { server: { publicUrl: base } } });
    proxy.target = server.url;
  });
  after(async () => {
    await server.close();
    await proxy.close();
  });

  async function register(extra: Record<string, unknown> = {}) {
    const res = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Manual',
        redirect_uris: [CALLBACK],
        token_endpoint_auth_method: 'none',
        ...extra,
      }),
    });
    return { status: res.status, body: (await res.json()) as any };
  }
  const challengeOf = async (verifier: string) =>
    Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))).toString(
      'base64url',
    );
  const VERIFIER = 'a'.repeat(20) + 'B-._~'.repeat(5) + 'c'.repeat(20);
  async function authUrl(clientId: string, over: Record<string, string> = {}) {
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: CALLBACK,
      code_challenge: await challengeOf(VERIFIER),
      code_challenge_method: 'S256',
      state: 's1',
      scope: 'household:read',
      ...over,
    });
    return `${base}/oauth/authorize?${q.toString()}`;
  }
  async function code(clientId: string) {
    return redirectedTo(
      await consent(await authUrl(clientId), server.apiKey, { scope: 'read' }),
    ).searchParams.get('code')!;
  }

  it('keeps the page on a wrong key (401, nothing sent back), refuses a non-admin key, and sends a denial back with the state', async () => {
    const { body: c } = await register();
    const wrong = await consent(
      await authUrl(c.client_id),
      'hk_AAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB',
    );
    expect(wrong.status).to.equal(401);
    expect(wrong.headers.get('location')).to.equal(null);
    expect(await wrong.text()).to.contain('That API key is not valid');
    const reader = await server.key({ scopes: ['write'] });
    const weak = await consent(await authUrl(c.client_id), reader);
    expect(weak.status).to.equal(403);
    const denied = redirectedTo(
      await consent(await authUrl(c.client_id), server.apiKey, { decision: 'deny' }),
    );
    expect(Object.fromEntries(denied.searchParams)).to.include({
      error: 'access_denied',
      state: 's1',
    });
  });

  it('refuses a foreign redirect_uri on the page itself; a granted client gets missing PKCE, plain PKCE and a foreign resource back as errors', async () => {
    const { body: c } = await register();
    const foreign = await fetch(
      await authUrl(c.client_id, { redirect_uri: 'https://evil.example/cb' }),
      { redirect: 'manual' },
    );
    expect(foreign.status).to.equal(400);
    expect(foreign.headers.get('location')).to.equal(null);
    expect(await foreign.text()).to.contain('redirect_uri is not one the assistant registered');
    // Before any grant, errors stay on the page (test/oauth/preConsent.e2e.test.ts); once an
    // admin granted the client, its redirect is trusted with them.
    const ungranted = await fetch(await authUrl(c.client_id, { code_challenge_method: 'plain' }), {
      redirect: 'manual',
    });
    expect(ungranted.status).to.equal(400);
    expect(ungranted.headers.get('location')).to.equal(null);
    const granted = await postForm(`${base}/oauth/token`, {
      grant_type: 'authorization_code',
      client_id: c.client_id,
      redirect_uri: CALLBACK,
      code: await code(c.client_id),
      code_verifier: VERIFIER,
    });
    expect(granted.status).to.equal(200);
    const plain = redirectedTo(
      await fetch(await authUrl(c.client_id, { code_challenge_method: 'plain' }), {
        redirect: 'manual',
      }),
    );
    expect(plain.searchParams.get('error')).to.equal('invalid_request');
    expect(plain.searchParams.get('error_description')).to.contain('S256');
    const target = redirectedTo(
      await fetch(await authUrl(c.client_id, { resource: 'https://other.example/mcp' }), {
        redirect: 'manual',
      }),
    );
    expect(target.searchParams.get('error')).to.equal('invalid_target');
    const page = await fetch(await authUrl(c.client_id));
    expect(page.headers.get('content-security-policy'))
      .to.contain("default-src 'none'")
      .and.contain("form-action 'self' http://127.0.0.1:9");
    expect(page.headers.get('x-frame-options')).to.equal('DENY');
  });

  it('refuses a tampered code_verifier and spends the code; a reused code revokes the grant made from it', async () => {
    const { body: c } = await register();
    const token = (fields: Record<string, string>) =>
      postForm(`${base}/oauth/token`, {
        grant_type: 'authorization_code',
        client_id: c.client_id,
        redirect_uri: CALLBACK,
        ...fields,
      });
    const tampered = await token({
      code: await code(c.client_id),
      code_verifier: `${VERIFIER.slice(0, -1)}d`,
    });
    expect(tampered.status).to.equal(400);
    expect(tampered.body).to.deep.equal({
      error: 'invalid_grant',
      error_description: 'code_verifier does not match the code_challenge',
    });

    const good = await code(c.client_id);
    const foreignRedirect = await token({
      code: good,
      code_verifier: VERIFIER,
      redirect_uri: 'http://127.0.0.1:9/other',
    });
    expect(foreignRedirect.body.error).to.equal('invalid_grant');
    const spent = await token({ code: good, code_verifier: VERIFIER });
    expect(spent.status).to.equal(400);
    const elsewhere = await token({
      code: await code(c.client_id),
      code_verifier: VERIFIER,
      resource: 'https://other.example/mcp',
    });
    expect(elsewhere.body.error).to.equal('invalid_target');

    const fresh = await code(c.client_id);
    const ok = await token({ code: fresh, code_verifier: VERIFIER });
    expect(ok.status).to.equal(200);
    expect(ok.headers.get('cache-control')).to.equal('no-store');
    expect(ok.body).to.include({ token_type: 'Bearer', expires_in: 3600, scope: 'household:read' });
    const reused = await token({ code: fresh, code_verifier: VERIFIER });
    expect(reused.body.error).to.equal('invalid_grant');
    const tools = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ok.body.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(tools.status).to.equal(401);
  });

  it('gives a read grant only read tools, keeps its token off REST, and lets keys in as before', async () => {
    const { body: c } = await register();
    const ok = await postForm(`${base}/oauth/token`, {
      grant_type: 'authorization_code',
      client_id: c.client_id,
      redirect_uri: CALLBACK,
      code: await code(c.client_id),
      code_verifier: VERIFIER,
    });
    const call = (headers: Record<string, string>, method = 'tools/list', params: unknown = {}) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    const listed = await call({ authorization: `Bearer ${ok.body.access_token}` });
    const names = listed.body.result.tools.map((t: any) => t.name);
    expect(names).to.include('list_entries').and.not.include('create_entry');
    const write = await call({ authorization: `Bearer ${ok.body.access_token}` }, 'tools/call', {
      name: 'create_entry',
      arguments: { collectionKey: 'chores', title: 'x' },
    });
    expect(write.body.result.isError).to.equal(true);
    expect(write.body.result.structuredContent.code).to.equal('forbidden');
    // The token is for /mcp only: REST refuses it, with or without a made-up proof.
    expect((await server.api.get('/trackers', { key: ok.body.access_token })).status).to.equal(401);
    expect(
      (
        await server.api.get('/trackers', {
          key: ok.body.access_token,
          headers: { 'x-household-inner-call': 'ab'.repeat(32) },
        })
      ).status,
    ).to.equal(401);
    // Keys keep working on /mcp.
    expect((await call({ 'x-api-key': server.apiKey })).status).to.equal(200);
    expect(
      (await call({ authorization: `Bearer ${server.apiKey}` })).body.result.tools.map(
        (t: any) => t.name,
      ),
    ).to.include('create_entry');
  });

  it('supports confidential clients (Basic and post) and revocation: an access token alone, a refresh token with its grant', async () => {
    const { status, body: c } = await register({
      token_endpoint_auth_method: 'client_secret_basic',
    });
    expect(status).to.equal(201);
    expect(c.client_secret).to.match(/^hcs_/);
    const basic = {
      authorization: `Basic ${Buffer.from(`${c.client_id}:${c.client_secret}`).toString('base64')}`,
    };
    const noSecret = await postForm(`${base}/oauth/token`, {
      grant_type: 'authorization_code',
      client_id: c.client_id,
      redirect_uri: CALLBACK,
      code: await code(c.client_id),
      code_verifier: VERIFIER,
    });
    expect(noSecret.status).to.equal(401);
    expect(noSecret.body.error).to.equal('invalid_client');
    const ok = await postForm(
      `${base}/oauth/token`,
      {
        grant_type: 'authorization_code',
        redirect_uri: CALLBACK,
        code: await code(c.client_id),
        code_verifier: VERIFIER,
      },
      basic,
    );
    expect(ok.status).to.equal(200);
    const viaPost = await postForm(`${base}/oauth/token`, {
      grant_type: 'refresh_token',
      refresh_token: ok.body.refresh_token,
      client_id: c.client_id,
      client_secret: c.client_secret,
    });
    expect(viaPost.status).to.equal(200);
    expect(
      (await postForm(`${base}/oauth/revoke`, { token: viaPost.body.access_token }, basic)).status,
    ).to.equal(200);
    const mcp = (token: string) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    expect((await mcp(viaPost.body.access_token)).status).to.equal(401);
    const refreshed = await postForm(
      `${base}/oauth/token`,
      { grant_type: 'refresh_token', refresh_token: viaPost.body.refresh_token },
      basic,
    );
    expect((await mcp(refreshed.body.access_token)).status).to.equal(200);
    await postForm(
      `${base}/oauth/revoke`,
      { token: refreshed.body.refresh_token, token_type_hint: 'refresh_token' },
      basic,
    );
    expect((await mcp(refreshed.body.access_token)).status).to.equal(401);
  });

  it('lets admins list and revoke grants over REST (logged) and on the command line; revoking the approving key stops a grant', async () => {
    const { body: c } = await register({ client_name: 'Kitchen assistant' });
    const admin2 = await server.key({ scopes: ['admin'], name: 'second admin' });
    const approve = async (key: string) => {
      const back = redirectedTo(await consent(await authUrl(c.client_id), key, { scope: 'read' }));
      return (
        await postForm(`${base}/oauth/token`, {
          grant_type: 'authorization_code',
          client_id: c.client_id,
          redirect_uri: CALLBACK,
          code: back.searchParams.get('code')!,
          code_verifier: VERIFIER,
        })
      ).body;
    };
    const t1 = await approve(server.apiKey);
    const t2 = await approve(admin2);
    const mine = (await server.api.get('/oauth-grants')).body.grants.filter(
      (g: any) => g.clientName === 'Kitchen assistant',
    );
    expect(mine).to.have.length(2);
    const writer = await server.key({ scopes: ['write'] });
    expect((await server.api.get('/oauth-grants', { key: writer })).status).to.equal(403);
    expect((await server.api.delete('/oauth-grants/grant_00000000000000000000')).status).to.equal(
      404,
    );
    const revoked = await server.api.delete(`/oauth-grants/${mine[0].id}`);
    expect(revoked.status).to.equal(200);
    expect(revoked.body.grant.revokedAt).to.be.a('string');
    expect((await server.api.delete(`/oauth-grants/${mine[0].id}`)).status).to.equal(409);
    const log = (await server.api.get('/changes?after=0&limit=500')).body.changes as any[];
    expect(
      log.filter((r) => r.type === 'oauth_grant.revoked' && r.object.id === mine[0].id),
    ).to.have.length(1);
    const mcp = (token: string) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    expect((await mcp(t1.access_token)).status).to.equal(401);
    expect((await mcp(t2.access_token)).status).to.equal(200);
    // The second grant's approving key is revoked: the grant stops with it.
    const { revokeKey } = await import('../../src/family/admin.js');
    await revokeKey(server.daemon.store, admin2.split('_')[1], new Date());
    expect((await mcp(t2.access_token)).status).to.equal(401);

    const { BIN } = await import('../helpers/child.js');
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    // Asynchronously: the daemon in this process must go on answering while the CLI runs.
    const cli = async (...args: string[]) =>
      (
        await promisify(execFile)(process.execPath, [BIN, ...args, '--data-dir', server.dataDir], {
          encoding: 'utf8',
          timeout: 20_000,
        })
      ).stdout;
    const t3 = await approve(server.apiKey);
    const third = (await server.api.get('/oauth-grants')).body.grants.at(-1);
    // Both at once (each start of the program costs seconds): the listing shows the grant either way.
    const [listed, revokedByCli] = await Promise.all([
      cli('grant', 'list', 'home', '--json'),
      cli('grant', 'revoke', third.id),
    ]);
    expect(JSON.parse(listed).grants.map((g: any) => [g.id, g.clientName])).to.deep.include([
      third.id,
      'Kitchen assistant',
    ]);
    expect(revokedByCli).to.contain(`Revoked grant ${third.id}`);
    expect((await mcp(t3.access_token)).status).to.equal(401);
  });

  it('bounds registration: a rate per address, a count of unused ones per address, and unused ones expire after a day', async () => {
    const bad = await register({ redirect_uris: ['http://evil.example/cb'] });
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.equal('invalid_redirect_uri');
    clock.advance(3_601_000);
    const made: string[] = [];
    let refusal: { status: number; body: any } | undefined;
    for (let hour = 0; hour < 5 && !refusal; hour++) {
      for (let i = 0; i < 20 && !refusal; i++) {
        const r = await register();
        if (r.status === 201) made.push(r.body.client_id);
        else refusal = r;
      }
      if (!refusal) {
        const over = await register(); // the 21st within the hour
        expect(over.status).to.equal(429);
        expect(over.body.error_description).to.contain('an hour');
      }
      clock.advance(3_601_000);
    }
    expect(refusal?.status).to.equal(429);
    expect(refusal?.body.error_description).to.contain('never used');
    // A day on, the unused ones are gone: their ids are unknown and the address may register again.
    clock.advance(25 * 3_600_000);
    const gone = await fetch(
      `${base}/oauth/authorize?client_id=${made[0]}&redirect_uri=${encodeURIComponent(CALLBACK)}`,
    );
    expect(gone.status).to.equal(400);
    expect((await register()).status).to.equal(201);
  });
});
