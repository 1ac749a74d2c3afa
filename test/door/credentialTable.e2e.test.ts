/**
 * The credentials × doors table (src/door/principals.ts) is the one the daemon keeps:
 * docs/design.md shows it as generated, and every credential kind is presented to every door a
 * probe can reach through the running daemon — REST, CalDAV, MCP, the live stream, the household
 * pages and the display — and is taken exactly where the table says and refused everywhere else.
 * (The public links and the OAuth endpoints take only their own kind, by construction of their
 * paths and forms: their tests are test/http/shares*, test/http/planIcs* and test/oauth.)
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { formPost, formToken, oneSocket, sessionSet } from '../helpers/burst.js';
import { approvedGrant } from '../helpers/oauth.js';
import { HouseholdAccess } from '../../src/family/access.js';
import {
  allowed,
  credentialTableMarkdown,
  type CredentialKindName,
  type DoorName,
} from '../../src/door/principals.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

describe('credentials × doors', function () {
  this.timeout(60_000);
  let server: TestServer;
  let kinds: Partial<Record<CredentialKindName, () => Promise<string>>>;

  before(async () => {
    server = await startTestServer({ overrides: { server: { publicUrl: null } } });
    const access = new HouseholdAccess(server.daemon.store);
    const device = (await server.api.post('/devices', { name: 'Phone', scopes: ['read'] })).body;
    const grant = await approvedGrant(server.url, server.apiKey, { scope: 'read' });
    const display = (await server.api.post('/displays', { name: 'Hall' })).body;
    const token = await formToken(`${server.url}/signin`);
    const signIn = await oneSocket(`${server.url}/signin`, formPost(token, { key: server.apiKey }));
    const session = sessionSet(signIn);
    kinds = {
      'API key': () => Promise.resolve(server.apiKey),
      'device key': () => Promise.resolve(device.apiKey as string),
      'OAuth access token': () => Promise.resolve(grant.accessToken),
      'page session': () => Promise.resolve(session),
      'sign-in link': async () => (await access.createLink('home', new Date())).apiKey,
      'pairing link': () =>
        Promise.resolve(new URL(device.pairing.url as string).pathname.slice('/pair/'.length)),
      'stream ticket': async () =>
        (await server.api.post('/changes/stream-tickets')).body.ticket as string,
      'display token': () => Promise.resolve(display.token as string),
    };
  });
  after(() => server.close());

  it('is in docs/design.md as the code has it', () => {
    const doc = readFileSync(resolve(root, 'docs/design.md'), 'utf8');
    expect(doc).to.include(credentialTableMarkdown());
  });

  const json = { accept: 'application/json, text/event-stream' };
  /** Whether the door took the credential: one request as that door's clients send it. */
  const probes: Record<string, (kind: CredentialKindName, text: string) => Promise<boolean>> = {
    REST: async (_k, text) =>
      (await server.http.get('/api/v1/families/home/people', { key: text })).status === 200,
    CalDAV: async (_k, text) => {
      const basic = Buffer.from(`home:${text}`).toString('base64');
      const r = await server.http.request('PROPFIND', '/dav/home/', {
        headers: { authorization: `Basic ${basic}`, depth: '0' },
      });
      return r.status === 207;
    },
    MCP: async (_k, text) => {
      const r = await server.http.post(
        '/mcp',
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { headers: { ...json, authorization: `Bearer ${text}` } },
      );
      return r.status === 200;
    },
    'live stream': async (kind, text) => {
      const url = `${server.url}/api/v1/families/home/changes/stream`;
      const r =
        kind === 'stream ticket'
          ? await oneSocket(`${url}?ticket=${text}`)
          : await oneSocket(url, { headers: { 'x-api-key': text } });
      return r.status === 200;
    },
    'household pages': async (kind, text) => {
      if (kind === 'page session') {
        const r = await oneSocket(`${server.url}/people`, {
          headers: { cookie: `ho_session=${text}` },
        });
        return r.status === 200;
      }
      if (kind === 'pairing link')
        return (await oneSocket(`${server.url}/pair/${text}`)).status === 200;
      // Anything else is presented to the sign-in form (as a key, or as a one-time link); and
      // as a cookie it never opens a page.
      const asCookie = await oneSocket(`${server.url}/people`, {
        headers: { cookie: `ho_session=${text}` },
      });
      expect(asCookie.status, `${kind} as a session cookie`).to.equal(303);
      const token = await formToken(`${server.url}/signin`);
      const field = kind === 'sign-in link' ? 'link' : 'key';
      const r = await oneSocket(`${server.url}/signin`, formPost(token, { [field]: text }));
      return r.status === 303 && sessionSet(r) !== '';
    },
    display: async (_k, text) => (await oneSocket(`${server.url}/display/${text}`)).status === 200,
  };

  for (const door of Object.keys(probes) as DoorName[])
    it(`${door}: takes exactly the kinds the table gives it`, async () => {
      const seen: string[] = [];
      for (const [kind, text] of Object.entries(kinds) as [
        CredentialKindName,
        () => Promise<string>,
      ][]) {
        const took = await probes[door](kind, await text());
        seen.push(`${kind}: ${took}`);
        expect(took, `${kind} at ${door}`).to.equal(allowed(kind, door));
      }
      expect(seen).to.have.length(8);
    });
});
