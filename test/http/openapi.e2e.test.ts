import { expect } from 'chai';
import { startTestServer, type Reply, type TestServer } from '../helpers/server.js';
import { conforms } from '../helpers/contract.js';

const FAMILY = '/api/v1/families/{familySlug}';

interface Op {
  method: string;
  path: string;
  op: any;
}

function operations(doc: any): Op[] {
  const out: Op[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item))
      out.push({ method: method.toUpperCase(), path, op });
  }
  return out;
}

/** A response of an operation, following a $ref to components/responses. */
function response(doc: any, op: any, status: number | string): any {
  const r = op.responses[String(status)];
  const ref = /^#\/components\/responses\/(.+)$/.exec(r?.$ref ?? '');
  return ref ? doc.components.responses[ref[1]] : r;
}

/** Every value of a response's examples (the single `example` or the named `examples`). */
function examplesOf(res: any): Record<string, any> {
  const media = res?.content?.['application/json'];
  if (!media) return {};
  if (media.example !== undefined) return { example: media.example };
  return Object.fromEntries(
    Object.entries<any>(media.examples ?? {}).map(([k, e]) => [k, e.value]),
  );
}

describe('GET /api/v1/openapi.json', () => {
  let server: TestServer;
  let doc: any;
  before(async () => {
    server = await startTestServer();
    doc = (await server.http.get('/api/v1/openapi.json')).body;
  });
  after(() => server?.close());

  it('is served without a key as OpenAPI 3.1', async () => {
    const r = await server.http.get('/api/v1/openapi.json');
    expect(r.status).to.equal(200);
    expect(r.body.openapi).to.equal('3.1.0');
    expect(r.body.components.securitySchemes.apiKey).to.include({
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
    });
    expect(r.body.info.license).to.deep.equal({ name: 'MIT', identifier: 'MIT' });
  });

  it('documents every route the router serves', () => {
    const missing: string[] = [];
    let count = 0;
    for (const layer of server.daemon.router.stack) {
      const path = String(layer.path).replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      for (const method of layer.methods.filter((m: string) => m !== 'HEAD')) {
        count++;
        if (!doc.paths[path]?.[method.toLowerCase()]) missing.push(`${method} ${path}`);
      }
    }
    expect(count).to.be.greaterThan(3);
    expect(missing).to.deep.equal([]);
  });

  it('declares and describes every tag the operations use, each used by some operation', () => {
    const declared = doc.tags.map((t: any) => t.name);
    const used = new Set(operations(doc).flatMap((o) => o.op.tags));
    expect([...used].filter((t) => !declared.includes(t))).to.deep.equal([]);
    expect(declared.filter((t: string) => !used.has(t))).to.deep.equal([]);
    for (const t of doc.tags)
      expect(t.description, t.name).to.be.a('string').and.have.length.greaterThan(10);
    expect(declared.slice(0, 3)).to.deep.equal(['System', 'Family', 'Changes']);
  });

  it('describes each shared shape once, as a named component every use refers to', () => {
    const text = JSON.stringify(doc);
    const schemas = Object.keys(doc.components.schemas);
    for (const name of [
      'Error',
      'Person',
      'Tracker',
      'Entry',
      'CalendarEvent',
      'CalendarShare',
      'Plan',
      'PlanSummary',
      'Poll',
      'PollOption',
      'PlanNote',
      'PlanEvent',
      'EventTiming',
      'ChangeRecord',
      'PublicPlan',
      'Family',
      'ApiKey',
      'CreateEventBody',
    ]) {
      expect(schemas, name).to.include(name);
    }
    // Every component is referred to; none is written out a second time inline.
    for (const name of schemas) {
      expect(text.split(`"#/components/schemas/${name}"`).length - 1, name).to.be.greaterThan(0);
      const body = JSON.stringify(doc.components.schemas[name]);
      if (body.length > 200)
        expect(text.split(body).length - 1, `${name} appears inline`).to.equal(1);
    }
    const poll = (p: string, m: string, s: string) =>
      doc.paths[`${FAMILY}${p}`][m].responses[s].content['application/json'].schema;
    expect(poll('/plans/{planId}/polls', 'post', '201').properties.poll).to.deep.equal({
      $ref: '#/components/schemas/Poll',
    });
    expect(
      poll('/plans/{planId}/polls/{pollId}/vote', 'post', '200').properties.poll,
    ).to.deep.equal({ $ref: '#/components/schemas/Poll' });
    expect(
      doc.paths[`${FAMILY}/people`].post.requestBody.content['application/json'].schema,
    ).to.deep.equal({ $ref: '#/components/schemas/CreatePersonBody' });
    // Measured: 282 KB for 72 operations (3.9 KB each) before the shapes and the shared answers
    // were named, 2.6 KB each after. The budget is per operation, so new endpoints fit in it.
    const operations = [
      ...Object.values<Record<string, unknown>>(doc.paths),
      ...Object.values<Record<string, unknown>>(doc.webhooks ?? {}),
    ].reduce((n, item) => n + Object.keys(item).length, 0);
    expect(text.length / operations).to.be.below(3_000);
  });

  it('gives every operation a success answer and every one that takes a key or input its 4xx answers', () => {
    for (const { method, path, op } of operations(doc)) {
      const statuses = Object.keys(op.responses).map(Number);
      const pending = statuses.includes(501);
      if (!pending)
        expect(
          statuses.some((s) => s >= 200 && s < 300),
          `${method} ${path}`,
        ).to.equal(true);
      const keyed = op.security === undefined;
      const input =
        op.parameters.some((p: any) => !p.$ref?.endsWith('/RequestId')) || op.requestBody;
      if (keyed || input)
        expect(
          statuses.some((s) => s >= 400 && s < 500),
          `${method} ${path}`,
        ).to.equal(true);
      if (keyed) expect(statuses).to.include.members([401, 403, 429]);
    }
  });

  it('documents x-request-id on every answer, the rate-limit headers on keyed ones, Idempotent-Replayed on writes', async () => {
    for (const { method, path, op } of operations(doc)) {
      const keyed = op.security === undefined;
      // A public route that requires an Idempotency-Key (a display's actions) replays too.
      const replays =
        keyed ||
        (op.parameters as { $ref?: string }[]).some(
          (p) => p.$ref === '#/components/parameters/IdempotencyKeyRequired',
        );
      for (const status of Object.keys(op.responses)) {
        const headers = response(doc, op, status).headers ?? {};
        expect(headers['x-request-id'], `${method} ${path} ${status}`).to.deep.equal({
          $ref: '#/components/headers/RequestId',
        });
        const success = Number(status) < 300;
        if (keyed && (success || status === '429'))
          expect(headers, `${method} ${path} ${status}`).to.have.property('RateLimit-Remaining');
        expect(Boolean(headers['Idempotent-Replayed']), `${method} ${path} ${status}`).to.equal(
          success && replays && method !== 'GET',
        );
      }
    }
    expect(doc.components.responses.RateLimited.headers['Retry-After']).to.deep.equal({
      $ref: '#/components/headers/RetryAfter',
    });
    expect(doc.components.responses.MethodNotAllowed.headers.Allow).to.deep.equal({
      $ref: '#/components/headers/Allow',
    });

    // And the daemon sends them.
    const write = await server.api.post(
      '/people',
      { name: 'Ana' },
      { headers: { 'Idempotency-Key': 'k-1', 'x-request-id': 'my-request.1' } },
    );
    expect(write.headers.get('x-request-id')).to.equal('my-request.1');
    expect(write.headers.get('ratelimit-limit')).to.match(/^\d+$/);
    const replay = await server.api.post(
      '/people',
      { name: 'Ana' },
      { headers: { 'Idempotency-Key': 'k-1' } },
    );
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
    expect(replay.body).to.deep.equal(write.body);
    const wrong = await server.api.request('PUT', '/people', { body: { name: 'x' } });
    expect(wrong.status).to.equal(405);
    expect(wrong.headers.get('allow')).to.be.a('string');
    expect(wrong.headers.get('x-request-id')).to.match(/^[A-Za-z0-9._:-]{1,128}$/);
  });

  it('shows limit defaults on the query parameters', () => {
    const param = (path: string, name: string) =>
      doc.paths[path].get.parameters.find((p: any) => p.name === name).schema;
    expect(param(`${FAMILY}/trackers/{collectionKey}/entries`, 'limit')).to.include({
      minimum: 1,
      maximum: 50,
      default: 20,
    });
    expect(param(`${FAMILY}/calendar/events`, 'limit')).to.include({
      minimum: 1,
      maximum: 50,
      default: 20,
    });
    expect(param(`${FAMILY}/changes`, 'limit')).to.include({
      minimum: 1,
      maximum: 500,
      default: 100,
    });
  });

  it('gives the shared error answers examples that are word for word what the daemon sends', async () => {
    const shared = (name: string) => examplesOf(doc.components.responses[name]);
    const reader = await server.key({ scopes: ['read'] });
    const writer = await server.key({ scopes: ['write'] });
    const other = await server.family('elsewhere');
    const home = `/api/v1/families/${server.slug}`;
    const real: [string, string, Promise<Reply>][] = [
      ['Unauthorized', 'missing', server.api.get('/people', { key: null })],
      [
        'Unauthorized',
        'invalid',
        server.api.get('/people', { key: `${server.apiKey.slice(0, 16)}${'A'.repeat(32)}` }),
      ],
      ['Forbidden', 'example', server.api.get('/people', { key: other.key })],
      [
        'ForbiddenWrite',
        'otherFamily',
        server.api.post('/people', { name: 'A' }, { key: other.key }),
      ],
      ['ForbiddenWrite', 'scope', server.api.post('/people', { name: 'A' }, { key: reader })],
      ['ForbiddenAdmin', 'scope', server.api.get('/calendar/shares', { key: writer })],
      ['PayloadTooLarge', 'example', server.api.post('/people', { name: 'x'.repeat(2_000_000) })],
      [
        'UnsupportedMediaType',
        'example',
        server.http.request('POST', `${home}/people`, {
          raw: 'name=A',
          contentType: 'text/plain',
          key: server.apiKey,
        }),
      ],
    ];
    for (const [name, example, pending] of real) {
      const r = await pending;
      expect(shared(name)[example], `${name} ${example}`).to.deep.equal(r.body);
    }
    // The 405 example is what PUT /trackers answers.
    expect(shared('MethodNotAllowed').example).to.deep.equal(
      (await server.api.request('PUT', '/trackers', { body: {} })).body,
    );
    // 422: the same Idempotency-Key with another body.
    await server.api.post('/people', { name: 'B' }, { headers: { 'Idempotency-Key': 'k-2' } });
    const mismatch = await server.api.post(
      '/people',
      { name: 'C' },
      { headers: { 'Idempotency-Key': 'k-2' } },
    );
    expect(mismatch.status).to.equal(422);
    expect(shared('IdempotencyMismatch').example).to.deep.equal(mismatch.body);
    // 409 and 429 carry a number or a race; their code and wording match.
    expect(shared('Conflict').example).to.include({ code: 'conflict' });
    expect(shared('Conflict').example.error).to.match(/Idempotency-Key is still being processed/);
  });

  it('answers 429 with Retry-After as the RateLimited answer shows', async () => {
    const limited = await startTestServer({ overrides: { rateLimit: { perMinute: 2 } } });
    try {
      let r = await limited.api.get('/people');
      for (let i = 0; i < 2; i++) r = await limited.api.get('/people');
      expect(r.status).to.equal(429);
      expect(Number(r.headers.get('retry-after'))).to.be.within(1, 60);
      const example = examplesOf(doc.components.responses.RateLimited).example;
      expect(r.body.error.replace(/\d+ s$/, 'N s')).to.equal(
        example.error.replace(/\d+ s$/, 'N s'),
      );
      expect(Object.keys(r.body).sort()).to.deep.equal(Object.keys(example).sort());
      await conforms(limited, r, 'get', `${FAMILY}/people`);
    } finally {
      await limited.close();
    }
  });

  it('gives each endpoint a 400 example that is what it answers to the request the example names', async () => {
    const fill = (path: string) =>
      path.replace(/\{(\w+)\}/g, (_m, n: string) =>
        n === 'familySlug' ? server.slug : doc.components.parameters[n].example,
      );
    let checked = 0;
    for (const { method, path, op } of operations(doc)) {
      const res = op.responses['400'];
      if (!res) continue;
      const [[kind, example]] = Object.entries<any>(res.content['application/json'].examples);
      const url = fill(path);
      const key = path.startsWith(FAMILY) ? server.apiKey : null;
      const r =
        kind === 'emptyBody'
          ? await server.http.request(method, url, { body: {}, key })
          : kind === 'unknownField'
            ? await server.http.request(method, url, { body: { unknownField: true }, key })
            : kind === 'unknownQuery'
              ? await server.http.request(method, `${url}?unknownParam=1`, { key })
              : await server.http.request(method, url, {
                  raw: '{',
                  contentType: 'application/json',
                  key,
                });
      expect(r.status, `${method} ${path} ${kind}: ${JSON.stringify(r.body)}`).to.equal(400);
      expect(example.value, `${method} ${path} ${kind}`).to.deep.equal(r.body);
      checked++;
    }
    expect(checked).to.be.greaterThan(40);
  });

  it('gives each endpoint a 404 example per path parameter, what it answers when that one names nothing', async () => {
    const api = server.api;
    const planId = (await api.post('/plans', { title: 'Trip' })).body.planId;
    const poll = (
      await api.post(`/plans/${planId}/polls`, {
        question: 'When?',
        options: [{ label: 'May' }, { label: 'June' }],
      })
    ).body.poll;
    const person = (await api.post('/people', { name: 'Voter' })).body.person.id;
    const voter = await server.key({ scopes: ['admin'], personId: person });
    const real: Record<string, string> = {
      collectionKey: 'chores',
      planId,
      pollId: poll.pollId,
      entryId: (await api.post('/trackers/chores/entries', { title: 'Bins' })).body.entryId,
    };
    const params = doc.components.parameters;
    let checked = 0;
    for (const { method, path, op } of operations(doc)) {
      const res = op.responses['404'];
      if (!res || !path.startsWith(FAMILY)) continue;
      const names = [...path.matchAll(/\{(\w+)\}/g)]
        .map((m) => m[1])
        .filter((n) => n !== 'familySlug');
      for (const [name, example] of Object.entries<any>(
        res.content['application/json'].examples ?? {},
      )) {
        const at = names.indexOf(name);
        const url = path
          .replace('{familySlug}', server.slug)
          .replace(/\{(\w+)\}/g, (_m, n: string) =>
            names.indexOf(n) < at ? real[n] : params[n].example,
          );
        // A body the endpoint takes, so that the lookup is what fails.
        const schema = op.requestBody?.content['application/json'].schema;
        const body = !schema
          ? undefined
          : schema.$ref
            ? doc.components.schemas[schema.$ref.split('/').pop()].examples?.[0]
            : (schema.examples?.[0] ?? {});
        const r = await server.http.request(method, url, {
          key: voter,
          ...(body !== undefined ? { body } : {}),
        });
        expect(r.status, `${method} ${path} ${name}: ${JSON.stringify(r.body)}`).to.equal(404);
        // The parameters before it are real here, examples in the document.
        let text = JSON.stringify(r.body);
        for (const n of names.slice(0, at)) text = text.replaceAll(real[n], params[n].example);
        expect(example.value, `${method} ${path} ${name}`).to.deep.equal(JSON.parse(text));
        checked++;
      }
    }
    expect(checked).to.be.greaterThan(35);
  });

  it('documents the 404 of the public pages: a page for browsers, the error JSON on request', async () => {
    const page = doc.paths['/p/{token}'].get.responses['404'].content;
    expect(Object.keys(page).sort()).to.deep.equal(['application/json', 'text/html']);
    const html = await server.http.get('/p/pln_nothing');
    expect(html.status).to.equal(404);
    expect(html.headers.get('content-type')).to.match(/^text\/html/);
    await conforms(server, html, 'get', '/p/{token}');
    const json = await server.http.get('/p/pln_nothing', {
      headers: { accept: 'application/json' },
    });
    expect(examplesOf({ content: page }).token).to.deep.equal(json.body);
    const feed = await server.http.get('/share/calendar/shr_nothing.ics');
    expect(examplesOf(doc.paths['/share/calendar/{file}'].get.responses['404']).file).to.deep.equal(
      feed.body,
    );
  });

  it('gives each endpoint not built yet an example naming it, word for word what it answers', async () => {
    // Whatever the document still lists as 501 (nothing, once every endpoint is built).
    const pending = Object.entries<any>(doc.paths).filter(
      ([p, item]) =>
        p.startsWith(FAMILY) && item.get?.responses?.['501'] && !p.includes('{', FAMILY.length),
    );
    for (const [p, item] of pending) {
      const path = p.slice(FAMILY.length);
      const example = item.get.responses['501'].content['application/json'].example;
      const r = await server.api.get(path);
      expect(r.status, path).to.equal(501);
      expect(example, path).to.deep.equal(r.body);
    }
  });

  it('describes the error shape and the answers the service gives', async () => {
    const health = await server.http.get('/healthz');
    await conforms(server, health, 'get', '/healthz');
    const changes = await server.api.get('/changes');
    await conforms(server, changes, 'get', `${FAMILY}/changes`);
    const denied = await server.api.get('/changes', { key: null });
    await conforms(server, denied, 'get', `${FAMILY}/changes`);
  });
});

describe('endpoints of the contract', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  it('are all built: no operation answers or documents 501 any more', async () => {
    const doc = (await server.http.get('/api/v1/openapi.json')).body;
    const unbuilt = operations(doc)
      .filter(({ op }) => op.responses['501'])
      .map(({ method, path }) => `${method} ${path}`);
    expect(unbuilt).to.deep.equal([]);
    expect((await server.api.get('/calendar/external', { key: null })).status).to.equal(401);
    const read = await server.key({ scopes: ['read'] });
    expect((await server.api.get('/calendar/external', { key: read })).status).to.equal(403);
  });
});
