/**
 * Forwarding between nodes over real HTTP on loopback: a "forwarder" (a small Koa app with
 * readRaw + forwardTo, as a node that does not own the family) in front of an "owner" (a
 * real daemon whose server first passes every request through acceptForwarded). What the
 * client gets through the forwarder is what the owner answers — bodies (JSON, gzip, CalDAV)
 * read again after the signature check, idempotency, request ids, a live stream record by
 * record — and what is refused never reaches the owner's handlers.
 */
import { expect } from 'chai';
import { createServer, request, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import Koa from 'koa';
import { startTestServer, Client, type TestServer } from '../helpers/server.js';
import { openSse } from '../helpers/sse.js';
import { Dav, ics } from '../caldav/dav.js';
import { jsonErrors } from '../../src/door/jsonForm.js';
import { requestLog } from '../../src/door/requestLog.js';
import { jsonBody, readRaw, replayBody } from '../../src/door/body.js';
import { createLogger } from '../../src/logger.js';
import { acceptForwarded, forwardTo } from '../../src/cluster/proxy.js';
import {
  FORWARD_HEADERS,
  newNonce,
  signedLines,
  signForward,
  type ForwardEnvelope,
} from '../../src/cluster/forward.js';

const SECRET = 's'.repeat(40);
const LIMIT = 64 * 1024;
const ENTRIES = '/trackers/chores/entries';

/** A node:http server for a Koa app (Koa answers every request itself, errors included). */
function serve(app: Koa): Server {
  const handle = app.callback();
  return createServer((req, res) => {
    void handle(req, res);
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A Koa app in front of `target`: forwards every request there, as a non-owner node would. */
function forwarder(target: () => string, opts: { limit?: number; timeoutMs?: number } = {}) {
  const app = new Koa();
  app.silent = true;
  app.use(requestLog(createLogger('silent')));
  app.use(jsonErrors());
  app.use(async (ctx) => {
    const body = await readRaw(ctx, opts.limit ?? LIMIT);
    await forwardTo(
      ctx,
      { node: 'owner-node', url: target() },
      {
        secret: SECRET,
        node: 'front-node',
        body,
        now: Date.now,
        ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
      },
    );
  });
  return serve(app);
}

describe('cluster: forwarding a request to the owner', function () {
  this.timeout(10_000);
  let owner: TestServer;
  let front: Server;
  let frontUrl: string;
  let via: Client;
  /** What reached the owner's handlers as a forwarded request. */
  const seen: { forwardedBy: string; requestId: string; method: string; url: string }[] = [];

  before(async () => {
    owner = await startTestServer({ timezone: 'Europe/Berlin' });
    // The owner's server: acceptForwarded, then the daemon's own app on the replayed request.
    const server = owner.daemon.server;
    const daemonHandler = server.listeners('request')[0] as RequestListener;
    server.removeListener('request', daemonHandler);
    const gate = new Koa();
    gate.silent = true;
    gate.use(jsonErrors());
    gate.use(
      acceptForwarded({ secret: SECRET, node: 'owner-node', now: Date.now, limitBytes: LIMIT }),
    );
    gate.use((ctx) => {
      if (ctx.state.forwardedBy)
        seen.push({
          forwardedBy: ctx.state.forwardedBy as string,
          requestId: ctx.get('x-request-id'),
          method: ctx.method,
          url: ctx.url,
        });
      ctx.respond = false;
      daemonHandler(ctx.req, ctx.res);
    });
    const gateHandler = gate.callback();
    server.prependListener('request', (req, res) => {
      void gateHandler(req, res);
    });
    front = forwarder(() => owner.url);
    frontUrl = await listen(front);
    via = new Client(`${frontUrl}/api/v1/families/home`, owner.apiKey);
  });
  beforeEach(() => {
    seen.length = 0;
  });
  after(async () => {
    await close(front);
    await owner.close();
  });

  const count = async () => (await owner.api.get(ENTRIES)).body.entries.length as number;

  it("creates an entry through the forwarder: the owner's 201 and body, the entry on the owner", async () => {
    const made = await via.post(ENTRIES, { title: 'Bins out' });
    expect(made.status).to.equal(201);
    expect(made.body.entry.title).to.equal('Bins out');
    expect(made.headers.get('content-type')).to.match(/^application\/json/);
    const listed = (await owner.api.get(ENTRIES)).body.entries as { id: string }[];
    expect(listed.find((e) => e.id === made.body.entry.id)).to.deep.equal(made.body.entry);
    expect(seen).to.have.length(1);
    expect(seen[0]).to.include({ forwardedBy: 'front-node', method: 'POST' });
    expect(seen[0].url).to.equal(`/api/v1/families/home${ENTRIES}`);
  });

  it('keeps the Idempotency-Key (the second POST replays the first) and the X-Request-Id', async () => {
    const before = await count();
    const headers = { 'idempotency-key': 'proxy-idem-1', 'x-request-id': 'req-proxy-1' };
    const first = await via.post(ENTRIES, { title: 'Water plants' }, { headers });
    const second = await via.post(ENTRIES, { title: 'Water plants' }, { headers });
    expect([first.status, second.status]).to.deep.equal([201, 201]);
    expect(second.body.entry.id).to.equal(first.body.entry.id);
    expect(await count()).to.equal(before + 1);
    expect(first.headers.get('x-request-id')).to.equal('req-proxy-1');
    expect(seen.map((s) => s.requestId)).to.deep.equal(['req-proxy-1', 'req-proxy-1']);
    // Without one, the forwarder's own id travels and comes back.
    const plain = await via.get(ENTRIES);
    const id = plain.headers.get('x-request-id');
    expect(id).to.match(/^[0-9a-f-]{36}$/);
    expect(seen[2].requestId).to.equal(id);
  });

  it('answers JSON, gzip JSON, MCP, OAuth form and CalDAV bodies exactly as the owner does directly', async () => {
    const gz = gzipSync(JSON.stringify({ title: 'Gzipped' }));
    const badGz = Buffer.concat([gz.subarray(0, 10), Buffer.from('not gzip')]);
    const cases: { raw: Buffer | string; contentType: string; headers?: Record<string, string> }[] =
      [
        { raw: gz, contentType: 'application/json', headers: { 'content-encoding': 'gzip' } },
        { raw: badGz, contentType: 'application/json', headers: { 'content-encoding': 'gzip' } },
        { raw: '{"title": ', contentType: 'application/json' },
        { raw: '{"title": "x", "nope": 1}', contentType: 'application/json' },
        { raw: 'title=x', contentType: 'application/x-www-form-urlencoded' },
      ];
    for (const c of cases) {
      const direct = await owner.api.request('POST', ENTRIES, c);
      const forwarded = await via.request('POST', ENTRIES, c);
      expect(forwarded.status, c.contentType).to.equal(direct.status);
      if (direct.status === 201) {
        expect(forwarded.body.entry.title).to.equal('Gzipped');
        expect(forwarded.body.entry.id).to.not.equal(direct.body.entry.id);
      } else expect(forwarded.body).to.deep.equal(direct.body);
    }
    // MCP: a Bearer key and a JSON-RPC body, read by the MCP SDK's transport.
    const mcp = async (base: string) => {
      const r = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${owner.apiKey}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: '{"jsonrpc":"2.0","id":7,"method":"tools/list"}',
      });
      return { status: r.status, body: (await r.json()) as { result?: { tools: unknown[] } } };
    };
    const mcpDirect = await mcp(owner.url);
    const mcpForwarded = await mcp(frontUrl);
    expect(mcpDirect.status).to.equal(200);
    expect(mcpDirect.body.result?.tools.length).to.be.above(5);
    expect(mcpForwarded).to.deep.equal(mcpDirect);
    // OAuth: a form post, read by the token endpoint's own loop over the request.
    const token = async (base: string, body = 'grant_type=password&client_id=cl_unknown') => {
      const r = await fetch(`${base}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      return { status: r.status, body: (await r.json()) as Record<string, unknown> };
    };
    const tokenDirect = await token(owner.url);
    expect(tokenDirect.status).to.equal(401);
    // The answer depends on the form: an empty one is refused otherwise.
    expect(await token(owner.url, '')).to.not.deep.equal(tokenDirect);
    expect(await token(frontUrl)).to.deep.equal(tokenDirect);
    // CalDAV: Basic credentials, text/calendar, If-None-Match.
    const event = (uid: string) =>
      ics(
        'PRODID:-//test//EN',
        'BEGIN:VEVENT',
        `UID:${uid}`,
        'DTSTAMP:20261101T000000Z',
        'DTSTART;TZID=Europe/Berlin:20261207T180000',
        'DURATION:PT1H',
        'SUMMARY:Piano',
        'END:VEVENT',
      );
    const direct = new Dav(owner, 'home', owner.apiKey);
    const forwarded = new Dav({ ...owner, url: frontUrl }, 'home', owner.apiKey);
    const put = await forwarded.put('/dav/home/calendar/via.ics', event('via-1'), {
      'if-none-match': '*',
    });
    const putDirect = await direct.put('/dav/home/calendar/direct.ics', event('direct-1'), {
      'if-none-match': '*',
    });
    expect([put.status, put.text]).to.deep.equal([putDirect.status, putDirect.text]);
    expect(put.status).to.equal(201);
    const got = await direct.request('GET', '/dav/home/calendar/via.ics');
    expect(got.status).to.equal(200);
    expect(got.text).to.contain('UID:via-1');
    const again = await forwarded.put('/dav/home/calendar/via.ics', event('via-1'), {
      'if-none-match': '*',
    });
    const againDirect = await direct.put('/dav/home/calendar/via.ics', event('via-1'), {
      'if-none-match': '*',
    });
    expect(again.status).to.equal(412);
    expect(again.text).to.equal(againDirect.text);
    expect(seen.filter((s) => s.url.startsWith('/dav/'))).to.have.length(2);
    expect(seen.filter((s) => s.url === '/mcp')).to.have.length(1);
    expect(seen.filter((s) => s.url === '/oauth/token')).to.have.length(1);
    expect(seen.filter((s) => s.url === `/api/v1/families/home${ENTRIES}`)).to.have.length(5);
  });

  it('streams the live change stream record by record, and a closed client closes the upstream', async () => {
    const reader = await openSse(`${frontUrl}/api/v1/families/home/changes/stream`, {
      'x-api-key': owner.apiKey,
    });
    try {
      expect(reader.status).to.equal(200);
      expect(reader.res.headers['content-type']).to.match(/^text\/event-stream/);
      expect(owner.daemon.streams.openCount).to.equal(1);
      // Each record arrives while the stream stays open, before the next write is made.
      const made: string[] = [];
      for (const title of ['Live 1', 'Live 2']) {
        made.push((await owner.api.post(ENTRIES, { title })).body.entry.id as string);
        await reader.count(made.length, 10_000);
      }
      expect(reader.events.map((e) => e.event)).to.deep.equal([
        'tracker.entry.created',
        'tracker.entry.created',
      ]);
      expect(reader.events.map((e) => JSON.parse(e.data).object.id)).to.deep.equal(made);
      // Last-Event-ID travels too: a second reader resumes after the first record.
      const resumed = await openSse(`${frontUrl}/api/v1/families/home/changes/stream`, {
        'x-api-key': owner.apiKey,
        'last-event-id': reader.events[0].id!,
      });
      try {
        await resumed.count(1, 10_000);
        expect(resumed.events[0].id).to.equal(reader.events[1].id);
        expect(owner.daemon.streams.openCount).to.equal(2);
      } finally {
        resumed.close();
      }
    } finally {
      reader.close();
    }
    const deadline = Date.now() + 10_000;
    while (owner.daemon.streams.openCount > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(owner.daemon.streams.openCount).to.equal(0);
  });

  it('refuses a body over the limit with 413 before anything reaches the owner', async () => {
    const small = forwarder(() => owner.url, { limit: 100 });
    const url = await listen(small);
    try {
      const before = await count();
      const big = new Client(`${url}/api/v1/families/home`, owner.apiKey);
      const r = await big.post(ENTRIES, { title: 'x'.repeat(200) });
      expect(r.status).to.equal(413);
      expect(r.body).to.deep.include({ ok: false, code: 'payload_too_large' });
      expect(r.body.error).to.match(/limit of 100 bytes/);
      // Chunked, without a declared length, too.
      const chunked = await new Promise<number>((resolve, reject) => {
        const req = request(
          `${url}/api/v1/families/home${ENTRIES}`,
          {
            method: 'POST',
            headers: { 'x-api-key': owner.apiKey, 'content-type': 'application/json' },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.write(`{"title": "${'y'.repeat(150)}`);
        req.end('"}');
      });
      expect(chunked).to.equal(413);
      expect(seen).to.have.length(0);
      expect(await count()).to.equal(before);
    } finally {
      await close(small);
    }
  });

  it('answers 503 with Retry-After in the error shape when the owner is down or silent; a client that gives up ends the upstream request', async () => {
    const gone = createServer();
    const goneUrl = await listen(gone);
    await close(gone);
    const givenUp = new Set<string>();
    // Takes the request, never answers; notes the request ids of those given up.
    const silent = createServer((req) =>
      req.socket.once('close', () => givenUp.add(String(req.headers['x-request-id']))),
    );
    const silentUrl = await listen(silent);
    for (const target of [goneUrl, silentUrl]) {
      const f = forwarder(() => target, { timeoutMs: 300 });
      const url = await listen(f);
      try {
        const r = await new Client(`${url}/api/v1/families/home`, owner.apiKey).post(ENTRIES, {
          title: 'Nobody home',
        });
        expect(r.status, target).to.equal(503);
        expect(r.headers.get('retry-after')).to.equal('2');
        expect(r.body).to.deep.include({ ok: false, code: 'unavailable' });
        expect(r.body.error).to.match(/owner-node.*cannot be reached/);
      } finally {
        await close(f);
      }
    }
    // A client that gives up first ends the request to the owner as well.
    const f = forwarder(() => silentUrl);
    const url = await listen(f);
    try {
      const gaveUp = fetch(`${url}/api/v1/families/home${ENTRIES}`, {
        headers: { 'x-request-id': 'gave-up-1' },
        signal: AbortSignal.timeout(200),
      });
      await gaveUp.then(
        () => expect.fail('the request should have been given up'),
        () => undefined,
      );
      expect(givenUp.has('gave-up-1')).to.equal(false);
      const deadline = Date.now() + 1000;
      while (!givenUp.has('gave-up-1') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(givenUp.has('gave-up-1')).to.equal(true);
    } finally {
      await close(f);
      await close(silent);
    }
  });

  /**
   * Sends a forward to the owner as a node would: the given header lines, signed with the
   * envelope (another secret, time or addressee when a case asks for it), then `edit`ed — what
   * someone on the way could do to a captured forward.
   */
  function forge(
    method: string,
    path: string,
    lines: Record<string, string>,
    body: Buffer,
    opts: { secret?: string; envelope?: Partial<ForwardEnvelope> } = {},
  ) {
    const headers: Record<string, string> = { host: new URL(owner.url).host, ...lines };
    const envelope: ForwardEnvelope = {
      node: 'front-node',
      to: 'owner-node',
      at: Date.now(),
      client: '192.0.2.7',
      nonce: newNonce(),
      ...opts.envelope,
    };
    const flat = Object.entries(headers).flat();
    const signature = signForward(
      opts.secret ?? SECRET,
      { method, url: path, headers: signedLines(flat), body },
      envelope,
    );
    const signed = { ...headers, ...signature };
    return {
      headers: signed,
      send: (edit: (h: Record<string, string>) => Record<string, string> = (h) => h) =>
        rawSend(method, path, edit({ ...signed }), body),
    };
  }

  /** One request over node:http: exactly these header lines (plus Content-Length), no others. */
  function rawSend(method: string, path: string, headers: Record<string, string>, body: Buffer) {
    return new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = request(`${owner.url}${path}`, { method, headers }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  it('serves a forward once: the same signed POST /people sent three times makes one person', async () => {
    const people = async () => (await owner.api.get('/people')).body.people.length as number;
    const before = await people();
    const body = Buffer.from(JSON.stringify({ name: 'Replayed Once' }));
    const forward = forge(
      'POST',
      '/api/v1/families/home/people',
      { 'x-api-key': owner.apiKey, 'content-type': 'application/json', 'x-request-id': 'rp-1' },
      body,
    );
    const answers = [await forward.send(), await forward.send(), await forward.send()];
    expect(answers.map((a) => a.status)).to.deep.equal([201, 401, 401]);
    expect(answers[1].body).to.deep.include({ ok: false, code: 'unauthorized' });
    expect(answers[1].body.issues[0].path).to.deep.equal(['header', 'X-Household-Forward-Nonce']);
    expect(answers[1].body.error).to.match(/used before/);
    expect(await people()).to.equal(before + 1);
    expect(seen).to.have.length(1);
  });

  it('refuses a forward with a header added, edited or removed, another secret, a stale time, another addressee or a missing part with 401, and writes nothing', async () => {
    const before = await count();
    const path = `/api/v1/families/home${ENTRIES}`;
    const body = Buffer.from(JSON.stringify({ title: 'Forged' }));
    const lines = { 'x-api-key': owner.apiKey, 'content-type': 'application/json' };
    type Edit = (h: Record<string, string>) => Record<string, string>;
    const drop =
      (name: string): Edit =>
      (h) => {
        delete h[name];
        return h;
      };
    const tries: [ReturnType<typeof forge>, Edit, string][] = [
      [
        forge('POST', path, lines, body),
        (h) => ({ ...h, 'content-type': 'text/plain' }),
        'Forward-Signature',
      ],
      [forge('POST', path, lines, body), (h) => ({ ...h, 'if-match': '"x"' }), 'Forward-Signature'],
      [
        forge('POST', path, lines, body),
        (h) => ({ ...h, 'idempotency-key': 'k-1' }),
        'Forward-Signature',
      ],
      [forge('POST', path, lines, body), drop('content-type'), 'Forward-Signature'],
      [
        forge('POST', path, lines, body),
        (h) => ({ ...h, [FORWARD_HEADERS.client]: '198.51.100.1' }),
        'Forward-Signature',
      ],
      [forge('POST', path, lines, body, { secret: 'z'.repeat(40) }), (h) => h, 'Forward-Signature'],
      [
        forge('POST', path, lines, body, { envelope: { at: Date.now() - 60_000 } }),
        (h) => h,
        'Forwarded-At',
      ],
      [
        forge('POST', path, lines, body, { envelope: { to: 'other-node' } }),
        (h) => h,
        'Forwarded-To',
      ],
      [forge('POST', path, lines, body), drop(FORWARD_HEADERS.nonce), 'Forward-Nonce'],
    ];
    for (const [forward, edit, named] of tries) {
      const r = await forward.send(edit);
      expect(r.status, named).to.equal(401);
      expect(r.body).to.deep.include({ ok: false, code: 'unauthorized' });
      expect(r.body.issues[0].path).to.deep.equal(['header', `X-Household-${named}`]);
    }
    // An edited body, under the unedited headers.
    const edited = forge('POST', path, lines, body);
    const r = await rawSend('POST', path, edited.headers, Buffer.from('{"title":"Edited"}'));
    expect(r.status).to.equal(401);
    expect(seen).to.have.length(0);
    expect(await count()).to.equal(before);
    // The same forward, unedited, is served: the refusals above were about the edits.
    const ok = await forge('POST', path, lines, body).send();
    expect(ok.status).to.equal(201);
    expect(seen).to.have.length(1);
  });
});

describe('cluster: replaying a buffered body inside one Koa app', () => {
  it('lets the JSON body reader after it read the same bytes (gzip, chunked)', async () => {
    const app = new Koa();
    app.silent = true;
    app.use(jsonErrors());
    app.use(async (ctx, next) => {
      replayBody(ctx, await readRaw(ctx, LIMIT));
      await next();
    });
    app.use(jsonBody(LIMIT));
    app.use((ctx) => {
      ctx.body = { parsed: (ctx.request as Koa.Request & { body?: unknown }).body };
    });
    const server = serve(app);
    const url = await listen(server);
    try {
      const json = await new Client(url, null).request('POST', '/', {
        raw: gzipSync('{"a":[1,2,{"b":"ü"}]}'),
        contentType: 'application/json',
        headers: { 'content-encoding': 'gzip' },
      });
      expect(json.status).to.equal(200);
      expect(json.body.parsed).to.deep.equal({ a: [1, 2, { b: 'ü' }] });
      const big = await new Client(url, null).request('POST', '/', {
        raw: JSON.stringify({ a: 'x'.repeat(LIMIT) }),
        contentType: 'application/json',
      });
      expect(big.status).to.equal(413);
    } finally {
      await close(server);
    }
  });
});
