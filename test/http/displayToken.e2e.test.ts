/**
 * A display's token opens its own page, stream and actions and nothing else: as an API key on
 * every family route the daemon publishes (read from the served OpenAPI document, so a route
 * added later is covered), as a stream ticket, as CalDAV's Basic password, as MCP's Bearer
 * token, as an OAuth refresh token, and in the other share links' addresses. Nothing is written
 * by any of those attempts.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { lastSeq } from '../helpers/changes.js';

describe("a display's token outside its own routes", () => {
  let server: TestServer;
  let token: string;
  const ops: { method: string; template: string; stream: boolean }[] = [];

  before(async () => {
    server = await startTestServer();
    const made = await server.api.post('/displays', { name: 'Kitchen', interactive: true });
    expect(made.status, made.text).to.equal(201);
    token = made.body.token;
    const doc = (await server.http.get('/api/v1/openapi.json')).body;
    for (const [template, item] of Object.entries<Record<string, any>>(doc.paths)) {
      if (!template.startsWith('/api/v1/families/{familySlug}')) continue;
      for (const [method, op] of Object.entries<any>(item)) {
        if (!['get', 'post', 'patch', 'put', 'delete'].includes(method)) continue;
        const stream = !!op.responses?.['200']?.content?.['text/event-stream'];
        ops.push({ method: method.toUpperCase(), template, stream });
      }
    }
  });
  after(() => server?.close());

  const fill = (template: string) =>
    template
      .replace('{familySlug}', server.slug)
      .replace(/\{(\w+)\}/g, (_, n: string) => `${n.replace(/Id$|Key$/, '').toLowerCase()}_x`);

  it('opens its own page, stream and actions', async () => {
    expect((await server.http.get(`/display/${token}`)).status).to.equal(200);
    const stream = await fetch(`${server.url}/display/${token}/events`);
    expect(stream.status).to.equal(200);
    await stream.body?.cancel();
    const act = await server.http.post(
      `/display/${token}/actions`,
      { action: 'add', collection: 'groceries', title: 'Milk' },
      { headers: { 'idempotency-key': 'k1' } },
    );
    expect(act.status, act.text).to.equal(200);
  });

  it('is refused (401) as an API key on every family route, and writes nothing', async () => {
    expect(ops.length).to.be.greaterThan(40);
    const seq = await lastSeq(server.api);
    for (const op of ops) {
      const url = server.url + fill(op.template);
      const res = await fetch(url, {
        method: op.method,
        headers: { 'x-api-key': token, 'content-type': 'application/json' },
        ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { body: '{}' }),
      });
      const text = await res.text();
      expect(res.status, `${op.method} ${op.template}: ${text}`).to.equal(401);
      expect(JSON.parse(text)).to.include({ ok: false, code: 'unauthorized' });
    }
    const ticket = await fetch(
      `${server.url}/api/v1/families/${server.slug}/changes/stream?ticket=${token}`,
    );
    expect(ticket.status).to.equal(401);
    await ticket.body?.cancel();
    expect(await lastSeq(server.api)).to.equal(seq);
  });

  it('is refused by CalDAV as a Basic password, by MCP as a Bearer token and by OAuth as a refresh token', async () => {
    const basic = `Basic ${Buffer.from(`${server.slug}:${token}`).toString('base64')}`;
    for (const [method, path] of [
      ['PROPFIND', `/dav/${server.slug}/`],
      ['GET', `/dav/${server.slug}/groceries/`],
      ['PUT', `/dav/${server.slug}/groceries/milk.ics`],
    ]) {
      const r = await fetch(server.url + path, {
        method,
        headers: { authorization: basic, depth: '0', 'content-type': 'text/calendar' },
        ...(method === 'PUT' ? { body: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n' } : {}),
      });
      expect(r.status, `${method} ${path}`).to.equal(401);
      await r.body?.cancel();
    }
    const mcp = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(mcp.status).to.equal(401);
    await mcp.body?.cancel();
    const oauth = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token }).toString(),
    });
    // Refused before or at the grant: no client names it, and no grant has it.
    expect(oauth.status).to.be.oneOf([400, 401]);
    const answer = (await oauth.json()) as { error: string; access_token?: string };
    expect(answer.error).to.be.oneOf(['invalid_grant', 'invalid_client']);
    expect(answer).to.not.have.property('access_token');
  });

  it("opens none of the other share links' pages and feeds", async () => {
    for (const path of [`/p/${token}`, `/p/${token}.ics`, `/share/calendar/${token}.ics`]) {
      const r = await server.http.get(path);
      expect(r.status, path).to.equal(404);
    }
  });
});
