/**
 * No credential reaches the log (docs/api.md, "Request ids and logs"): requests carrying each
 * kind — a display token, a stream ticket, a calendar share token, a plan share token, a
 * pairing link, OAuth codes, access and refresh tokens, API keys — in paths, query strings,
 * request ids and user agents, through the running daemon with its log written to a buffer.
 * The log keeps the redaction marker where a credential was.
 */
import { expect } from 'chai';
import { Writable } from 'node:stream';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createLogger } from '../../src/logger.js';
import { approvedGrant, authorizeUrl, consent, redirectedTo } from '../helpers/oauth.js';
import { mcpCall } from '../helpers/mcp.js';

describe('the request log and credentials', function () {
  this.timeout(30_000);
  let server: TestServer;
  const text: string[] = [];

  before(async () => {
    const sink = new Writable({
      write(chunk, _enc, cb) {
        text.push(String(chunk));
        cb();
      },
    });
    server = await startTestServer({ logger: createLogger('info', sink) });
  });
  after(() => server?.close());

  async function flushed(marker: string): Promise<string> {
    await server.http.get('/healthz', { headers: { 'x-request-id': marker } });
    for (let i = 0; i < 100 && !text.join('').includes(marker); i++)
      await new Promise((r) => setTimeout(r, 10));
    return text.join('');
  }

  /** The same credential everywhere a client could put it, on paths no route or method matches. */
  async function everywhere(token: string): Promise<void> {
    await server.http.get(`/no/such/${token}/path`);
    await server.http.get(`/no/such/path?x=${token}`);
    await server.http.get('/healthz', { headers: { 'x-request-id': token } });
    await server.http.get('/healthz', { headers: { 'user-agent': `Agent ${token} 1.0` } });
    await server.http.request('PUT', `/api/v1/families/home/people/${token}`);
  }

  it('never writes a display token, a share token, a plan token or a pairing link', async () => {
    const display = (await server.api.post('/displays', { name: 'Kitchen' })).body.token as string;
    expect(display).to.match(/^dsp_/);
    const share = (await server.api.post('/calendar/shares', { name: 'Grandma' })).body
      .token as string;
    expect(share).to.match(/^shr_/);
    const planId = (await server.api.post('/plans', { title: 'Trip' })).body.planId as string;
    const planUrl = (await server.api.post(`/plans/${planId}/share`, { enabled: true })).body
      .shareUrl as string;
    const plan = planUrl.split('/p/')[1];
    expect(plan).to.match(/^pln_/);
    const pairing = 'Xy7pairingSecret0000000000000000';

    await server.http.get(`/display/${display}`);
    await server.http.post(`/display/${display}`, {});
    await server.http.get(`/display/${display}/nothing`);
    await server.http.get(`/display/${display}/events/more`);
    await server.http.get(`/share/calendar/${share}.ics`);
    await server.http.post(`/share/calendar/${share}.ics`, {});
    await server.http.get(`/p/${plan}`);
    await server.http.request('DELETE', `/p/${plan}`);
    await server.http.get(`/p/${plan}.ics/more`);
    await server.http.get(`/pair/${pairing}`);
    await server.http.get(`/pair/${pairing}/apple.mobileconfig`);
    for (const t of [display, share, plan]) await everywhere(t);

    const log = await flushed('flush-1');
    for (const t of [display, share, plan, pairing]) {
      expect(log, t).to.not.contain(t);
      expect(log, t).to.not.contain(t.slice(4, 20));
    }
    expect(log).to.contain('/display/:redacted');
    expect(log).to.contain('/pair/:redacted');
    expect(log).to.contain('[redacted]');
  });

  it('never writes a stream ticket, an OAuth code, access token, refresh token or API key', async () => {
    const ticket = (await server.api.post('/changes/stream-tickets')).body.ticket as string;
    expect(ticket).to.match(/^stk_/);
    // Spent by a first use (refused here for a wrong family slug), then refused as used.
    await server.http.get(`/api/v1/families/nope/changes/stream?ticket=${ticket}`);
    await server.http.get(`/api/v1/families/home/changes/stream?ticket=${ticket}`);

    const grant = await approvedGrant(server.url, server.apiKey, { scope: 'read' });
    const code = redirectedTo(
      await consent(await authorizeUrl(server.url, grant.clientId), server.apiKey, {
        scope: 'read',
      }),
    ).searchParams.get('code')!;
    expect(code).to.match(/^hoc_/);
    await mcpCall(server.url, { authorization: `Bearer ${grant.accessToken}` }, 'ping');
    await mcpCall(server.url, { authorization: `Bearer ${grant.accessToken}x` }, 'ping');
    const key = await server.key({ scopes: ['read'] });

    for (const t of [ticket, code, grant.accessToken, grant.refreshToken, key]) await everywhere(t);

    const log = await flushed('flush-2');
    for (const t of [ticket, code, grant.accessToken, grant.refreshToken, key]) {
      expect(log, t).to.not.contain(t);
      expect(log, t).to.not.contain(t.slice(-24));
    }
    expect(log).to.contain('[redacted]');
    expect(log).to.contain('/no/such/:redacted/path');
  });
});
