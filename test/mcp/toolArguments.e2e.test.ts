/**
 * A tool's path arguments are route parameters (docs/api.md, "Assistants (MCP)"): each must be
 * one segment of the route's parameter pattern — `.`, `..`, slashes (also encoded),
 * backslashes and control characters are refused with a tool error naming the argument, and
 * nothing is sent. Through the real server with the issue's two examples: a write grant's
 * `delete_entry {entryId: ".."}` (it deleted the whole collection) and a read grant's
 * `get_plan {planId: ".."}` (it read the family).
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { approvedGrant } from '../helpers/oauth.js';
import { mcpCall, toolCall } from '../helpers/mcp.js';

const HOSTILE = [
  '.',
  '..',
  '../..',
  'a/b',
  '/',
  '%2F',
  '..%2F..',
  '%2e%2e',
  'a\\b',
  '..\\..',
  'a\u0000b',
  'a\nb',
  'a\u007fb',
  'x?y=1',
  'x#y',
  ' ',
];

describe('MCP tools: path arguments', () => {
  let server: TestServer;
  let writeGrant: string;
  let readGrant: string;
  let entryId: string;
  let planId: string;
  const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

  before(async () => {
    server = await startTestServer();
    expect((await server.api.post('/trackers', { name: 'Packing list' })).status).to.equal(201);
    const entry = await server.api.post('/trackers/packing-list/entries', { title: 'Socks' });
    entryId = entry.body.entry.id;
    planId = (await server.api.post('/plans', { title: 'Trip' })).body.planId;
    writeGrant = (await approvedGrant(server.url, server.apiKey, { scope: 'write' })).accessToken;
    readGrant = (await approvedGrant(server.url, server.apiKey, { scope: 'read' })).accessToken;
  });
  after(() => server?.close());

  function expectRefused(r: { status: number; body: any }, argument: string, value: string) {
    expect(r.status).to.equal(200);
    const result = r.body.result;
    expect(result.isError, `${argument}=${JSON.stringify(value)}`).to.equal(true);
    expect(result.structuredContent).to.deep.include({ ok: false, code: 'invalid_request' });
    expect(result.structuredContent.issues).to.deep.equal([
      {
        path: [argument],
        message:
          'must be one path segment: letters, digits, ".", "_" or "-", starting with a letter or digit (at most 128)',
      },
    ]);
  }

  it('refuses delete_entry {entryId: ".."} of a write grant, and the collection and its entry stay', async () => {
    const r = await toolCall(server.url, bearer(writeGrant), 'delete_entry', {
      collectionKey: 'packing-list',
      entryId: '..',
    });
    expectRefused(r, 'entryId', '..');
    const list = await server.api.get('/trackers/packing-list/entries');
    expect(list.status).to.equal(200);
    expect(list.body.entries.map((e: any) => e.id)).to.deep.equal([entryId]);
  });

  it('refuses get_plan {planId: ".."} of a read grant, and answers nothing of the family', async () => {
    const r = await toolCall(server.url, bearer(readGrant), 'get_plan', { planId: '..' });
    expectRefused(r, 'planId', '..');
    const text = JSON.stringify(r.body);
    expect(text).to.not.contain('"slug"').and.not.contain('timezone');
  });

  it('refuses every hostile value in every path argument, for keys as for grants', async () => {
    for (const value of HOSTILE) {
      expectRefused(
        await toolCall(server.url, bearer(writeGrant), 'delete_entry', {
          collectionKey: 'packing-list',
          entryId: value,
        }),
        'entryId',
        value,
      );
      expectRefused(
        await toolCall(server.url, { 'x-api-key': server.apiKey }, 'update_entry', {
          collectionKey: value,
          entryId,
          title: 'Changed',
        }),
        'collectionKey',
        value,
      );
      expectRefused(
        await toolCall(server.url, bearer(readGrant), 'get_plan', { planId: value }),
        'planId',
        value,
      );
    }
    const list = await server.api.get('/trackers/packing-list/entries');
    expect(list.body.entries.map((e: any) => [e.id, e.title])).to.deep.equal([[entryId, 'Socks']]);
  });

  it('still serves ordinary ids and keys', async () => {
    const plan = await toolCall(server.url, bearer(readGrant), 'get_plan', { planId });
    expect(plan.body.result.isError).to.not.equal(true);
    expect(plan.body.result.structuredContent.planId).to.equal(planId);
    const entries = await toolCall(server.url, bearer(readGrant), 'list_entries', {
      collectionKey: 'packing-list',
    });
    expect(entries.body.result.structuredContent.entries).to.have.length(1);
  });

  it('offers the pattern in the tool schema, so a model sees it', async () => {
    const listed = await mcpCall(server.url, { 'x-api-key': server.apiKey }, 'tools/list');
    const tool = listed.body.result.tools.find((t: any) => t.name === 'delete_entry');
    expect(tool.inputSchema.properties.entryId.pattern).to.equal(
      '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$',
    );
  });
});
