/**
 * An assistant's OAuth grant has a rate budget of its own (`grant:<id>`, rateLimit.perMinute):
 * its calls never spend the budget of the admin key that approved it, nor the other way round,
 * nor another grant's.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';
import { approvedGrant } from '../helpers/oauth.js';
import { mcpCall } from '../helpers/mcp.js';

describe('MCP OAuth grants: rate limits', () => {
  const clock = new FakeClock('2026-11-22T08:30:00.000Z');
  let server: TestServer;
  let admin: string;
  const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
  const listPeople = (headers: Record<string, string>) =>
    mcpCall(server.url, headers, 'tools/call', { name: 'list_people', arguments: {} });

  before(async () => {
    server = await startTestServer({
      now: clock.now,
      overrides: { rateLimit: { perMinute: 4, publicPerMinute: 1000 } },
    });
    admin = await server.key({ scopes: ['read', 'write', 'admin'], name: 'approver' });
  });
  after(() => server?.close());
  beforeEach(() => clock.advance(60_000));

  it("counts a grant's calls in its own bucket: the approving admin key keeps its whole budget", async () => {
    const grant = await approvedGrant(server.url, admin, { scope: 'read' });
    clock.advance(60_000);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await listPeople(bearer(grant.accessToken))).status);
    expect(statuses).to.deep.equal([200, 200, 200, 200]);
    const over = await mcpCall(server.url, bearer(grant.accessToken), 'tools/list');
    expect(over.status).to.equal(429);
    expect(over.headers.get('retry-after')).to.equal('60');
    expect(over.body.error.message).to.equal(
      'Too many requests for this OAuth grant; try again in 60 s',
    );
    const rest = await server.api.get('/people', { key: admin });
    expect(rest.status).to.equal(200);
    expect(rest.headers.get('ratelimit-remaining')).to.equal('3');
    expect((await mcpCall(server.url, { 'x-api-key': admin }, 'ping')).status).to.equal(200);
  });

  it("answers a grant while the admin key that approved it is over its limit, and another grant's budget is apart", async () => {
    const first = await approvedGrant(server.url, admin, { scope: 'write' });
    const second = await approvedGrant(server.url, admin, { scope: 'read' });
    clock.advance(60_000);
    for (let i = 0; i < 4; i++)
      expect((await server.api.get('/people', { key: admin })).status).to.equal(200);
    expect((await server.api.get('/people', { key: admin })).status).to.equal(429);
    const r = await listPeople(bearer(first.accessToken));
    expect(r.status).to.equal(200);
    expect(r.body.result.isError, JSON.stringify(r.body)).to.not.equal(true);
    expect(r.headers.get('ratelimit-remaining')).to.equal('3');
    for (let i = 0; i < 3; i++) await listPeople(bearer(first.accessToken));
    expect((await listPeople(bearer(first.accessToken))).status).to.equal(429);
    expect((await listPeople(bearer(second.accessToken))).status).to.equal(200);
  });
});
