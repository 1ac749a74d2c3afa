/**
 * /mcp under the daemon's one limiter (docs/api.md, "Limits on every door"): every MCP message
 * counts against the key's `rateLimit.perMinute` — initialize, tools/list, ping, resources —
 * and a tool call counts once (its REST request inside the daemon is not counted again). Past
 * the limit, HTTP 429 with Retry-After and a JSON-RPC error body. Failed credentials count per
 * client address; a valid key is served whatever others sent from that address.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';
import { mcpCall } from '../helpers/mcp.js';

const INIT = {
  protocolVersion: '2025-06-18',
  capabilities: {},
  clientInfo: { name: 'limits-test', version: '1.0.0' },
};

describe('MCP /mcp: rate limits', () => {
  const clock = new FakeClock('2026-11-22T08:30:00.000Z');
  let server: TestServer;
  const as = (key: string) => ({ 'x-api-key': key });

  before(async () => {
    server = await startTestServer({
      now: clock.now,
      overrides: { rateLimit: { perMinute: 5, publicPerMinute: 20 } },
    });
  });
  after(() => server?.close());
  beforeEach(() => clock.advance(60_000));

  it('counts every MCP message of a key — initialize, tools/list, ping, resources/list — and answers 429 with Retry-After past perMinute', async () => {
    const key = await server.key({ scopes: ['read'] });
    const seen: [number, string | null][] = [];
    for (const method of ['initialize', 'tools/list', 'ping', 'resources/list', 'tools/list']) {
      const r = await mcpCall(server.url, as(key), method, method === 'initialize' ? INIT : {});
      expect(r.body.error, JSON.stringify(r.body)).to.equal(undefined);
      seen.push([r.status, r.headers.get('ratelimit-remaining')]);
    }
    expect(seen).to.deep.equal([
      [200, '4'],
      [200, '3'],
      [200, '2'],
      [200, '1'],
      [200, '0'],
    ]);
    clock.advance(15_000);
    const over = await mcpCall(server.url, as(key), 'ping');
    expect(over.status).to.equal(429);
    expect(over.headers.get('retry-after')).to.equal('45');
    expect(over.headers.get('ratelimit-limit')).to.equal('5');
    expect(over.body).to.deep.equal({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message: 'Too many requests for this API key; try again in 45 s',
        data: { code: 'rate_limited', retryAfter: 45 },
      },
    });
    // The key's one budget: REST refuses it as well.
    expect((await server.api.get('/people', { key })).status).to.equal(429);
    clock.advance(45_000);
    expect((await mcpCall(server.url, as(key), 'ping')).status).to.equal(200);
  });

  it('counts a tool call once, though it is answered by a REST request inside the daemon', async () => {
    const key = await server.key({ scopes: ['read'] });
    const r = await mcpCall(server.url, as(key), 'tools/call', {
      name: 'list_people',
      arguments: {},
    });
    expect(r.status).to.equal(200);
    expect(r.body.result.isError, JSON.stringify(r.body)).to.not.equal(true);
    expect(r.headers.get('ratelimit-remaining')).to.equal('4');
    const read = await mcpCall(server.url, as(key), 'resources/read', {
      uri: 'household://people',
    });
    expect(read.body.result.contents).to.have.length(1);
    expect(read.headers.get('ratelimit-remaining')).to.equal('3');
    const rest = await server.api.get('/people', { key });
    expect(rest.headers.get('ratelimit-remaining')).to.equal('2');
  });

  it('serves a valid key after 20 bad ones from the same address, and keeps refusing the bad ones', async () => {
    for (let i = 0; i < 20; i++) {
      const r = await mcpCall(server.url, as(`hk_bad${i}_${'x'.repeat(32)}`), 'ping');
      expect(r.status).to.equal(401);
    }
    const good = await mcpCall(server.url, as(server.apiKey), 'ping');
    expect(good.status, JSON.stringify(good.body)).to.equal(200);
    const bad = await mcpCall(server.url, as('hk_bad_again'), 'ping');
    expect(bad.status).to.equal(429);
    expect(bad.headers.get('retry-after')).to.match(/^\d+$/);
    expect(bad.body.error.data.code).to.equal('rate_limited');
    expect(bad.body.error.message).to.match(
      /^Too many requests with a missing or invalid API key from this address; try again in \d+ s$/,
    );
  });
});
