/**
 * The MCP endpoint through the real daemon, spoken to by the SDK's own client: tools mirror
 * REST (same bodies, same validation, same scopes, same change log), resources read REST,
 * and the door is guarded (key, Host/Origin, method).
 */
import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';
import { startFakeOpenMeteo, type FakeOpenMeteo } from '../helpers/fakes/openMeteo.js';
import { startFakeSearxng, type FakeSearxng } from '../helpers/fakes/searxng.js';
import { startFakePages, type FakePages } from '../helpers/fakes/pages.js';
import { toJsonSchema } from '../../src/door/schema.js';
import { CreateEntryBody } from '../../src/http/routes/entries.schema.js';
import { ListEventsQuery } from '../../src/http/routes/calendar.schema.js';
import { TOOLS } from '../../src/mcp/tools.js';
import { changesAfter } from '../helpers/changes.js';

const READ_TOOLS = [
  'get_household_overview',
  'search_household',
  'list_collections',
  'list_entries',
  'list_events',
  'list_people',
  'list_plans',
  'get_plan',
  'get_weather',
  'web_search',
  'read_web_page',
];
const WRITE_TOOLS = [
  'create_entry',
  'update_entry',
  'delete_entry',
  'create_event',
  'update_event',
  'delete_event',
  'create_plan',
  'add_plan_note',
  'vote_in_poll',
  'send_notification',
];

describe('MCP /mcp', () => {
  let server: TestServer;
  let meteo: FakeOpenMeteo;
  let searx: FakeSearxng;
  let pages: FakePages;
  const clock = new FakeClock('2026-11-22T08:30:00.000Z');
  const clients: Client[] = [];
  let admin: Client;

  async function connect(
    key: string | null,
    opts: { bearer?: boolean; headers?: Record<string, string> } = {},
  ): Promise<Client> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (key)
      headers[opts.bearer ? 'authorization' : 'x-api-key'] = opts.bearer ? `Bearer ${key}` : key;
    const client = new Client({ name: 'mcp-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } }),
    );
    clients.push(client);
    return client;
  }
  const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult & {
      structuredContent?: any;
    };
  const ok = (r: CallToolResult & { structuredContent?: any }) => {
    expect(r.isError, JSON.stringify(r.content)).to.not.equal(true);
    expect(JSON.parse((r.content[0] as { text: string }).text)).to.deep.equal(r.structuredContent);
    return r.structuredContent;
  };

  before(async () => {
    meteo = await startFakeOpenMeteo({ start: '2026-11-22' });
    searx = await startFakeSearxng();
    pages = await startFakePages();
    server = await startTestServer({
      now: clock.now,
      overrides: {
        weather: { forecastUrl: meteo.forecastUrl, geocodingUrl: meteo.geocodingUrl },
        webSearch: { searxngUrl: searx.url },
      },
    });
    admin = await connect(server.apiKey);
  });
  after(async () => {
    for (const c of clients) await c.close();
    await server.close();
    await meteo.close();
    await searx.close();
    await pages.close();
  });

  describe('initialize and tools/list', () => {
    it('initializes statelessly and names the household, its time zone and its capabilities', () => {
      expect(admin.getServerVersion()?.name).to.equal('household-organizer');
      expect(admin.getServerCapabilities()).to.include.keys('tools', 'resources');
      const tz = server.daemon.store.getFamilyBySlug('home')!.timezone;
      expect(admin.getInstructions()).to.include('YYYY-MM-DD').and.include(tz);
    });

    it('lists every tool of the design to an admin key, with annotations and a schema from the REST structs', async () => {
      const { tools } = await admin.listTools();
      expect(tools.map((t) => t.name).sort()).to.deep.equal([...READ_TOOLS, ...WRITE_TOOLS].sort());
      expect(TOOLS.length).to.equal(21);
      const create = tools.find((t) => t.name === 'create_entry')!;
      const body = toJsonSchema(CreateEntryBody) as { properties: Record<string, unknown> };
      expect(create.inputSchema.properties).to.deep.include({
        title: body.properties.title,
        data: body.properties.data,
      });
      expect(create.inputSchema.required).to.have.members(['collectionKey', 'title']);
      expect(create.annotations).to.include({
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      });
      const events = tools.find((t) => t.name === 'list_events')!;
      expect(events.inputSchema.properties).to.deep.include(
        (toJsonSchema(ListEventsQuery) as { properties: Record<string, unknown> }).properties,
      );
      expect(events.annotations).to.include({ readOnlyHint: true });
      expect(events.description)
        .to.include('YYYY-MM-DD')
        .and.include(server.daemon.store.getFamilyBySlug('home')!.timezone);
      expect(tools.find((t) => t.name === 'delete_event')!.annotations).to.include({
        destructiveHint: true,
        idempotentHint: true,
      });
      expect(tools.find((t) => t.name === 'web_search')!.annotations).to.include({
        readOnlyHint: true,
        openWorldHint: true,
      });
      expect(tools.find((t) => t.name === 'search_household')!.inputSchema.required).to.deep.equal([
        'query',
      ]);
      expect(
        tools.find((t) => t.name === 'get_household_overview')!.inputSchema.properties,
      ).to.deep.equal({});
    });

    it('lists only read tools to a read key, and refuses a write tool called anyway with the 403 body, writing nothing', async () => {
      const reader = await connect(await server.key({ scopes: ['read'] }));
      const { tools } = await reader.listTools();
      expect(tools.map((t) => t.name).sort()).to.deep.equal([...READ_TOOLS].sort());
      const before = (await server.api.get('/plans')).body;
      const r = await call(reader, 'create_plan', { title: 'Sneaky plan' });
      expect(r.isError).to.equal(true);
      expect(r.structuredContent).to.include({ ok: false, code: 'forbidden' });
      expect((await server.api.get('/plans')).body).to.deep.equal(before);
    });

    it('lists read and write tools to a write key', async () => {
      const writer = await connect(await server.key({ scopes: ['write'] }));
      expect((await writer.listTools()).tools.map((t) => t.name).sort()).to.deep.equal(
        [...READ_TOOLS, ...WRITE_TOOLS].sort(),
      );
    });
  });

  describe('tools call the REST API', () => {
    let collectionKey: string;
    let anaId: string;
    before(async () => {
      const t = await server.api.post('/trackers', {
        name: 'MCP pantry',
        fields: [{ key: 'qty', label: 'Quantity', type: 'number' }],
      });
      expect(t.status).to.equal(201);
      collectionKey = t.body.tracker.key;
      const ana = await server.api.post('/people', { name: 'Ana Lima' });
      anaId = ana.body.personId ?? ana.body.person?.personId ?? ana.body.person?.id;
      expect(anaId).to.be.a('string');
    });

    it('list_collections, list_people, list_plans answer exactly the REST bodies', async () => {
      expect(ok(await call(admin, 'list_collections'))).to.deep.equal(
        (await server.api.get('/trackers')).body,
      );
      expect(ok(await call(admin, 'list_people'))).to.deep.equal(
        (await server.api.get('/people')).body,
      );
      expect(ok(await call(admin, 'list_plans'))).to.deep.equal(
        (await server.api.get('/plans')).body,
      );
      expect(JSON.stringify(ok(await call(admin, 'list_people')))).to.include('Ana Lima');
    });

    it('create_entry, list_entries, update_entry, delete_entry change the collection as REST sees it, and log as the key', async () => {
      const created = ok(
        await call(admin, 'create_entry', { collectionKey, title: 'Oat milk', data: { qty: 2 } }),
      );
      const entryId: string =
        created.entryId ??
        created.entry?.entryId ??
        created.entry?.id ??
        created.entries?.[0]?.entryId;
      expect(entryId).to.be.a('string');
      const rest = await server.api.get(`/trackers/${collectionKey}/entries`);
      expect(JSON.stringify(rest.body)).to.include('Oat milk');
      expect(ok(await call(admin, 'list_entries', { collectionKey }))).to.deep.equal(rest.body);

      const updated = ok(
        await call(admin, 'update_entry', {
          collectionKey,
          entryId,
          title: 'Oat milk (barista)',
          data: { qty: 3 },
        }),
      );
      expect(JSON.stringify(updated)).to.include('barista');
      const after = await server.api.get(`/trackers/${collectionKey}/entries`);
      expect(JSON.stringify(after.body)).to.include('Oat milk (barista)').and.include('"qty":3');

      const changes = await changesAfter(server.api, 0);
      // The change log records the tool's write like a REST one.
      const logged = changes.filter((c) => JSON.stringify(c).includes(entryId));
      expect(logged.length, JSON.stringify(changes.at(-1))).to.be.at.least(2);

      const gone = await call(admin, 'delete_entry', { collectionKey, entryId });
      expect(gone.isError).to.not.equal(true);
      expect(
        JSON.stringify((await server.api.get(`/trackers/${collectionKey}/entries`)).body),
      ).to.not.include('Oat milk');
    });

    it('create_event, list_events, update_event, delete_event work on the family calendar', async () => {
      const created = ok(
        await call(admin, 'create_event', {
          title: 'Swimming',
          date: '2026-11-25',
          time: '17:00',
          durationMinutes: 60,
        }),
      );
      const eventId: string = created.entryId;
      expect(eventId).to.be.a('string');
      const listed = ok(await call(admin, 'list_events', { from: '2026-11-22', to: '2026-11-30' }));
      expect(listed).to.deep.equal(
        (await server.api.get('/calendar/events?from=2026-11-22&to=2026-11-30')).body,
      );
      expect(JSON.stringify(listed)).to.include('Swimming');

      ok(await call(admin, 'update_event', { eventId, time: '18:30' }));
      const rest = await server.api.get('/calendar/events?from=2026-11-22&to=2026-11-30');
      expect(JSON.stringify(rest.body)).to.include('18:30');

      expect((await call(admin, 'delete_event', { eventId })).isError).to.not.equal(true);
      expect(
        JSON.stringify(
          (await server.api.get('/calendar/events?from=2026-11-22&to=2026-11-30')).body,
        ),
      ).to.not.include('Swimming');
    });

    it('get_household_overview and search_household answer the context endpoint', async () => {
      await server.api.post(`/trackers/${collectionKey}/entries`, { title: 'Pancake flour' });
      expect(ok(await call(admin, 'get_household_overview'))).to.deep.equal(
        (await server.api.get('/context')).body,
      );
      const found = ok(await call(admin, 'search_household', { query: 'ana' }));
      expect(found).to.deep.equal((await server.api.get('/context?query=ana')).body);
      expect(JSON.stringify(found.results)).to.include('Ana Lima');
    });

    it('create_plan, add_plan_note, get_plan and vote_in_poll work on plans', async () => {
      const plan = ok(
        await call(admin, 'create_plan', { title: 'Lisbon trip', prose: 'Spring break' }),
      );
      const planId: string = plan.planId;
      ok(await call(admin, 'add_plan_note', { planId, body: 'Book the train' }));
      const poll = await server.api.post(`/plans/${planId}/polls`, {
        question: 'When?',
        options: [{ label: 'March' }, { label: 'April' }],
      });
      expect(poll.status).to.equal(201);
      const optionId: string = poll.body.poll.options[1].optionId;
      // A vote is a person's: the key acts for Ana.
      const anas = await connect(await server.key({ scopes: ['write'], personId: anaId }));
      ok(await call(anas, 'vote_in_poll', { planId, pollId: poll.body.pollId, optionId }));
      const got = ok(await call(admin, 'get_plan', { planId }));
      expect(got).to.deep.equal((await server.api.get(`/plans/${planId}`)).body);
      const text = JSON.stringify(got);
      expect(text).to.include('Book the train').and.include(optionId);
      const polls = JSON.stringify(got);
      expect(polls).to.match(new RegExp(`"optionId":"${optionId}"[^}]*"votes":1`));
      expect(JSON.stringify((await server.api.get('/plans')).body)).to.include('Lisbon trip');
    });

    it('send_notification records a notification', async () => {
      const sent = ok(await call(admin, 'send_notification', { title: 'Dinner is ready' }));
      expect(sent.ok).to.equal(true);
      expect(JSON.stringify((await server.api.get('/notifications')).body)).to.include(
        'Dinner is ready',
      );
    });

    it('get_weather, web_search and read_web_page go out through the daemon to the (fake) services', async () => {
      const weather = ok(await call(admin, 'get_weather', { location: 'Lisbon' }));
      expect(weather).to.deep.include({ ok: true, date: '2026-11-22' });
      expect(meteo.geocodingCalls().at(-1)!.get('name')).to.equal('Lisbon');
      const search = ok(await call(admin, 'web_search', { query: 'pancakes', numResults: 2 }));
      expect(search.results).to.have.length(2);
      expect(searx.queries().at(-1)!.get('q')).to.equal('pancakes');
      pages.page('/recipe', {
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: '<html><head><title>Recipe</title></head><body><article><h1>Pancakes</h1><p>Mix flour, milk and eggs, then fry in butter until golden on both sides.</p></article></body></html>',
      });
      const page = ok(await call(admin, 'read_web_page', { url: `${pages.origin}/recipe` }));
      expect(page).to.include({ ok: true, url: `${pages.origin}/recipe` });
      expect(JSON.stringify(page)).to.include('Mix flour');
    });
  });

  describe('invalid input', () => {
    it('answers isError with the REST 400 body naming the field', async () => {
      const r = await call(admin, 'create_plan', { title: '' });
      expect(r.isError).to.equal(true);
      expect(r.structuredContent).to.include({ ok: false, code: 'invalid_request' });
      expect(r.structuredContent.issues[0].path).to.deep.equal(['title']);
      const unknown = await call(admin, 'create_plan', { title: 'ok', colour: 'red' });
      expect(unknown.isError).to.equal(true);
      expect(unknown.structuredContent.issues[0].path).to.deep.equal(['colour']);
      const query = await call(admin, 'list_events', { from: '22.11.2026' });
      expect(query.isError).to.equal(true);
      expect(JSON.stringify(query.structuredContent.issues[0].path)).to.include('from');
    });

    it('refuses a missing path parameter by name, and answers 404 bodies for unknown ids', async () => {
      const r = await call(admin, 'get_plan', {});
      expect(r.isError).to.equal(true);
      expect(r.structuredContent.issues[0].path).to.deep.equal(['planId']);
      const missing = await call(admin, 'get_plan', { planId: 'plan_00000000000000000000' });
      expect(missing.isError).to.equal(true);
      expect(missing.structuredContent).to.include({ ok: false, code: 'not_found' });
    });

    it('answers an unknown tool with a protocol error', async () => {
      let failed: Error | undefined;
      try {
        await call(admin, 'drop_database');
      } catch (err) {
        failed = err as Error;
      }
      expect(failed?.message).to.include('Unknown tool: drop_database');
    });
  });

  describe('resources', () => {
    it('lists and reads household://people and household://calendar/upcoming as the REST bodies', async () => {
      const { resources } = await admin.listResources();
      expect(resources.map((r) => r.uri)).to.have.members([
        'household://calendar/upcoming',
        'household://people',
      ]);
      const people = await admin.readResource({ uri: 'household://people' });
      expect(JSON.parse((people.contents[0] as { text: string }).text)).to.deep.equal(
        (await server.api.get('/people')).body,
      );
      await server.api.post('/calendar/events', {
        title: 'Dentist',
        date: '2026-11-28',
        time: '09:00',
      });
      await server.api.post('/calendar/events', {
        title: 'Far away',
        date: '2026-12-20',
        time: '09:00',
      });
      const upcoming = await admin.readResource({ uri: 'household://calendar/upcoming' });
      const body = JSON.parse((upcoming.contents[0] as { text: string }).text);
      expect(body).to.deep.equal(
        (await server.api.get('/calendar/events?from=2026-11-22&to=2026-11-29&limit=50')).body,
      );
      expect(JSON.stringify(body)).to.include('Dentist').and.not.include('Far away');
    });
  });

  describe('the door', () => {
    const post = (
      headers: Record<string, string>,
      body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    ) =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body,
      });

    it('answers 401 without or with a bad key, as JSON, naming the OAuth protected resource metadata (docs/oauth.md)', async () => {
      for (const headers of <Record<string, string>[]>[
        {},
        { 'x-api-key': 'hk_nope_nope' },
        { authorization: 'Bearer hk_nope_nope' },
      ]) {
        const r = await post(headers);
        expect(r.status).to.equal(401);
        const hint =
          'resource_metadata="http://share.test/.well-known/oauth-protected-resource/mcp"';
        expect(r.headers.get('www-authenticate')).to.equal(
          Object.keys(headers).length ? `Bearer error="invalid_token", ${hint}` : `Bearer ${hint}`,
        );
        // The door's form: a JSON-RPC error (no id: the message was not read) under the status.
        const body = (await r.json()) as any;
        expect(body).to.include({ jsonrpc: '2.0', id: null });
        expect(body.error.data.code).to.equal('unauthorized');
      }
      let failed: Error | undefined;
      try {
        await connect(null);
      } catch (err) {
        failed = err as Error;
      }
      expect(failed).to.be.instanceOf(Error);
    });

    it('counts missing and wrong keys per address like REST: past rateLimit.publicPerMinute bad keys wait (429), a good key is served', async () => {
      const limited = await startTestServer({ overrides: { rateLimit: { publicPerMinute: 3 } } });
      try {
        const send = (headers: Record<string, string>) =>
          fetch(`${limited.url}/mcp`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              ...headers,
            },
            body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
          });
        const statuses: number[] = [];
        for (let i = 0; i < 4; i++)
          statuses.push((await send({ 'x-api-key': 'hk_nope_nope' })).status);
        expect(statuses).to.deep.equal([401, 401, 401, 429]);
        const bad = await send({});
        expect(bad.status).to.equal(429);
        expect(Number(bad.headers.get('retry-after'))).to.be.within(1, 60);
        const good = await send({ 'x-api-key': limited.apiKey });
        expect(good.status).to.equal(200);
      } finally {
        await limited.close();
      }
    });

    it('takes the key as Authorization: Bearer', async () => {
      const bearer = await connect(server.apiKey, { bearer: true });
      expect((await bearer.listTools()).tools).to.have.length(21);
    });

    it('answers GET /mcp with 405 and Allow: POST', async () => {
      const r = await fetch(`${server.url}/mcp`, { headers: { 'x-api-key': server.apiKey } });
      expect(r.status).to.equal(405);
      expect(r.headers.get('allow')).to.equal('POST');
      expect(((await r.json()) as any).error.data.code).to.equal('method_not_allowed');
    });

    it('refuses a rebound Host or a foreign Origin (403) and accepts loopback names on any port', async () => {
      const raw = (host: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const u = new URL(server.url);
          const req = httpRequest(
            {
              host: u.hostname,
              port: u.port,
              path: '/mcp',
              method: 'POST',
              headers: {
                host,
                'x-api-key': server.apiKey,
                'content-type': 'application/json',
                accept: 'application/json, text/event-stream',
              },
            },
            (res) => {
              let b = '';
              res.on('data', (c) => {
                b += c;
              });
              res.on('end', () => resolve({ status: res.statusCode!, body: b }));
            },
          );
          req.on('error', reject);
          req.end('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
        });
      const evil = await raw('attacker.example:8080');
      expect(evil.status).to.equal(403);
      expect(JSON.parse(evil.body).error.data.code).to.equal('forbidden');
      for (const host of ['localhost:9999', '127.0.0.1', '[::1]:1234']) {
        const r = await raw(host);
        expect(r.status, host).to.equal(200);
        expect(JSON.parse(r.body).result.tools).to.have.length(21);
      }
      const origin = await post({ 'x-api-key': server.apiKey, origin: 'http://attacker.example' });
      expect(origin.status).to.equal(403);
      expect(
        (await post({ 'x-api-key': server.apiKey, origin: 'http://localhost:5173' })).status,
      ).to.equal(200);
    });
  });
});
