/**
 * GET /metrics through the running daemon: off by default (404), the Prometheus text format
 * when on, each figure moved by the thing it counts (requests by route template and status,
 * active families, group commits and flushes, a change-log consumer's lag, the agenda's depth
 * and lateness on a fake clock, webhook outcomes), the bearer token, and one registry per daemon.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';
import { startReceiver, type Receiver } from '../helpers/fakes/receiver.js';
import { loadConfig, ConfigError } from '../../src/config.js';
import { VERSION } from '../../src/version.js';
import type { AgendaJob } from '../../src/domain/shared/state.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (format 0.0.4). */
function parse(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[l[1]] = l[2].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    out.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return out;
}

/** The value of the one sample named `name` whose labels include `labels` (0 when there is none). */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const hits = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (hits.length > 1)
    throw new Error(`${name} ${JSON.stringify(labels)} matches ${hits.length} samples`);
  return hits[0]?.value ?? 0;
}

async function scrape(server: TestServer, headers: Record<string, string> = {}): Promise<Sample[]> {
  const r = await server.http.get('/metrics', { headers });
  expect(r.status, r.text).to.equal(200);
  return parse(r.text);
}

const PEOPLE = '/api/v1/families/:familySlug/people';

describe('GET /metrics', function () {
  this.timeout(30_000);

  describe('while metrics.enabled is false (the default)', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer();
    });
    after(() => server?.close());

    it('answers 404 naming the setting, and the daemon keeps no metrics', async () => {
      const r = await server.http.get('/metrics');
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal({
        ok: false,
        code: 'not_found',
        error:
          'Metrics are off; set metrics.enabled to true in the configuration (or HOUSEHOLD_METRICS=1) to serve them',
      });
      expect(server.daemon.metrics.enabled).to.equal(false);
      // Callers may report without asking whether metrics are on.
      server.daemon.metrics.webhookOutcome('delivered', 200);
    });

    it('is documented, with its 401 and 404', async () => {
      const op = (await server.http.get('/api/v1/openapi.json')).body.paths['/metrics'].get;
      expect(Object.keys(op.responses)).to.include.members(['200', '401', '404', '429']);
      expect(op.responses['200'].content).to.have.property(
        'text/plain; version=0.0.4; charset=utf-8',
      );
      expect(op.security).to.deep.equal([]);
    });
  });

  describe('while enabled', () => {
    const clock = new FakeClock('2026-11-24T08:00:00.000Z');
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ now: clock.now, overrides: { metrics: { enabled: true } } });
    });
    after(() => server?.close());

    it('answers the Prometheus text format with the version and the process figures', async () => {
      const r = await server.http.get('/metrics');
      expect(r.status).to.equal(200);
      expect(r.headers.get('content-type')).to.equal('text/plain; version=0.0.4; charset=utf-8');
      expect(r.headers.get('cache-control')).to.equal('no-store');
      expect(r.text).to.include('# TYPE household_http_requests_total counter');
      expect(r.text).to.include('# TYPE household_http_request_duration_seconds histogram');
      const samples = parse(r.text);
      expect(
        value(samples, 'household_build_info', { version: VERSION, node: process.version }),
      ).to.equal(1);
      expect(value(samples, 'process_resident_memory_bytes')).to.be.greaterThan(0);
      expect(samples.some((s) => s.name === 'nodejs_eventloop_lag_seconds')).to.equal(true);
    });

    it('counts requests by method, route template and status — never by path', async () => {
      for (let i = 0; i < 3; i++) expect((await server.api.get('/people')).status).to.equal(200);
      expect((await server.api.post('/people', { name: 'Ana' })).status).to.equal(201);
      expect((await server.api.delete('/people/person_01kaq5m2v8x3c4d5e6f7')).status).to.equal(404);
      expect((await server.http.get('/no/such/path/hk_secret')).status).to.equal(404);
      expect((await server.http.get('/no/such/path?token=x')).status).to.equal(404);
      expect((await server.api.request('PUT', '/people', { body: {} })).status).to.equal(405);

      const s = await scrape(server);
      const count = (method: string, route: string, status: number) =>
        value(s, 'household_http_requests_total', { method, route, status: String(status) });
      expect(count('GET', PEOPLE, 200)).to.equal(3);
      expect(count('POST', PEOPLE, 201)).to.equal(1);
      expect(count('DELETE', `${PEOPLE}/:personId`, 404)).to.equal(1);
      expect(count('GET', 'unmatched', 404)).to.equal(2);
      expect(count('PUT', 'unmatched', 405)).to.equal(1);
      // The histogram saw the same requests.
      expect(
        value(s, 'household_http_request_duration_seconds_count', {
          method: 'GET',
          route: PEOPLE,
          status: '200',
        }),
      ).to.equal(3);
      expect(
        value(s, 'household_http_request_duration_seconds_bucket', {
          method: 'GET',
          route: PEOPLE,
          status: '200',
          le: '+Inf',
        }),
      ).to.equal(3);
      expect(
        value(s, 'household_http_request_duration_seconds_sum', {
          method: 'GET',
          route: PEOPLE,
          status: '200',
        }),
      ).to.be.greaterThan(0);
      const routes = new Set(
        s.filter((x) => x.labels.route !== undefined).map((x) => x.labels.route),
      );
      for (const route of routes)
        expect(route).to.satisfy(
          (r: string) =>
            r === 'unmatched' || r === '/metrics' || r.startsWith('/api/') || r === '/healthz',
        );
      expect([...routes].join(' '))
        .to.not.include('person_')
        .and.not.include('hk_')
        .and.not.include('/no/');
    });

    it('shows how many families are in memory', async () => {
      const before = value(await scrape(server), 'household_active_families');
      expect(before).to.equal(1); // home, from the requests above
      const other = await server.family('smiths');
      await other.client.get('/people');
      expect(value(await scrape(server), 'household_active_families')).to.equal(2);
    });

    it('times each group commit and its flush, and counts the family batches', async () => {
      const before = await scrape(server);
      for (const name of ['Ben', 'Cy', 'Dee'])
        expect((await server.api.post('/people', { name })).status).to.equal(201);
      const after = await scrape(server);
      const delta = (name: string) => value(after, name) - value(before, name);
      expect(delta('household_store_committed_batches_total')).to.equal(3);
      expect(delta('household_store_commit_duration_seconds_count')).to.equal(3);
      expect(delta('household_store_flush_duration_seconds_count')).to.equal(3);
      expect(delta('household_store_commit_duration_seconds_sum')).to.be.greaterThan(0);
      expect(delta('household_store_flush_duration_seconds_sum')).to.be.at.most(
        delta('household_store_commit_duration_seconds_sum'),
      );
      expect(value(after, 'household_store_writes_failing')).to.equal(0);
    });

    it('shows the lag of a change-log consumer: durable records beyond its checkpoint', async () => {
      const { store, metrics } = server.daemon;
      const home = store.getFamilyBySlug('home')!;
      metrics.followChangeLog('test-consumer', (actor) =>
        store.getCheckpoint('test-consumer', actor.family.id),
      );
      const last = (await server.api.get('/changes?after=0&limit=500')).body.nextAfter as number;
      expect(last).to.be.greaterThan(2);
      expect(
        value(await scrape(server), 'household_changelog_lag_records', {
          consumer: 'test-consumer',
        }),
      ).to.equal(last);

      await store.commit(home.id, { checkpoints: [{ consumer: 'test-consumer', seq: last - 1 }] });
      expect(
        value(await scrape(server), 'household_changelog_lag_records', {
          consumer: 'test-consumer',
        }),
      ).to.equal(1);
      await server.api.post('/people', { name: 'Eve' });
      expect(
        value(await scrape(server), 'household_changelog_lag_records', {
          consumer: 'test-consumer',
        }),
      ).to.equal(2);
      await store.commit(home.id, { checkpoints: [{ consumer: 'test-consumer', seq: last + 1 }] });
      expect(
        value(await scrape(server), 'household_changelog_lag_records', {
          consumer: 'test-consumer',
        }),
      ).to.equal(0);
    });

    it("shows the agenda's depth, the jobs due and how late the earliest is, on the daemon's clock", async () => {
      const home = server.daemon.store.getFamilyBySlug('home')!;
      const actor = await server.daemon.registry.get(home);
      const at = clock.now().getTime();
      await actor.execute(
        () => ({
          result: undefined,
          changes: [],
          events: [],
          agenda: [
            {
              put: {
                id: 'job_a',
                kind: 'metrics-test',
                dueAt: at + 60 * 60_000,
              } as unknown as AgendaJob,
            },
            {
              put: {
                id: 'job_b',
                kind: 'metrics-test',
                dueAt: at + 120 * 60_000,
              } as unknown as AgendaJob,
            },
          ],
        }),
        { keyId: null, personId: null },
      );

      let s = await scrape(server);
      expect(value(s, 'household_agenda_jobs')).to.equal(2);
      expect(value(s, 'household_agenda_due_jobs')).to.equal(0);
      expect(value(s, 'household_agenda_lateness_seconds')).to.equal(0);

      clock.advance(90 * 60_000); // job_a is 30 minutes late
      s = await scrape(server);
      expect(value(s, 'household_agenda_jobs')).to.equal(2);
      expect(value(s, 'household_agenda_due_jobs')).to.equal(1);
      expect(value(s, 'household_agenda_lateness_seconds')).to.equal(30 * 60);

      clock.advance(60 * 60_000);
      s = await scrape(server);
      expect(value(s, 'household_agenda_due_jobs')).to.equal(2);
      expect(value(s, 'household_agenda_lateness_seconds')).to.equal(90 * 60);

      await actor.execute(
        () => ({
          result: undefined,
          changes: [],
          events: [],
          agenda: [{ remove: 'job_a' }, { remove: 'job_b' }],
        }),
        { keyId: null, personId: null },
      );
      s = await scrape(server);
      expect(value(s, 'household_agenda_jobs')).to.equal(0);
      expect(value(s, 'household_agenda_lateness_seconds')).to.equal(0);
    });

    it('counts webhook outcomes by outcome and status class', async () => {
      const { metrics } = server.daemon;
      metrics.webhookOutcome('delivered', 200);
      metrics.webhookOutcome('delivered', 204);
      metrics.webhookOutcome('failed', null);
      metrics.webhookOutcome('failed', 503);
      metrics.webhookOutcome('gave_up', 410);
      const s = await scrape(server);
      const n = (outcome: string, status: string) =>
        value(s, 'household_webhook_deliveries_total', { outcome, status });
      expect(n('delivered', '2xx')).to.equal(2);
      expect(n('failed', 'none')).to.equal(1);
      expect(n('failed', '5xx')).to.equal(1);
      expect(n('gave_up', '4xx')).to.equal(1);
    });
  });

  describe('with a webhook destination', () => {
    let server: TestServer;
    let receiver: Receiver;
    const clock = new FakeClock('2026-11-22T08:30:00.000Z');
    before(async () => {
      receiver = await startReceiver();
      server = await startTestServer({ now: clock.now, overrides: { metrics: { enabled: true } } });
    });
    after(async () => {
      await server.close();
      await receiver.close();
    });

    async function until(check: () => Promise<boolean>): Promise<void> {
      for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 20));
    }

    it('counts real deliveries by outcome and shows the outbox as a change-log consumer', async () => {
      receiver.answer = (_d, n) => ({ status: n === 0 ? 503 : 204 });
      const made = await server.api.post('/webhook-destinations', {
        name: 'HA',
        url: receiver.url,
        eventTypes: ['person.created'],
      });
      expect(made.status).to.equal(201);
      await server.api.post('/people', { name: 'Ana' });
      await receiver.waitFor(1);
      const failed = async () =>
        value(await scrape(server), 'household_webhook_deliveries_total', {
          outcome: 'failed',
          status: '5xx',
        }) === 1;
      await until(failed);
      expect(await failed()).to.equal(true);
      // The retry is on the agenda (5 s and a little jitter): move the clock and run it.
      clock.advance(10_000);
      await server.daemon.scheduler.runDue();
      await receiver.waitFor(2);
      const delivered = async () =>
        value(await scrape(server), 'household_webhook_deliveries_total', {
          outcome: 'delivered',
          status: '2xx',
        }) === 1;
      await until(delivered);
      expect(await delivered()).to.equal(true);
      const lag = (await scrape(server)).filter(
        (x) => x.name === 'household_changelog_lag_records' && x.labels.consumer === 'webhooks',
      );
      expect(lag.map((x) => x.value)).to.deep.equal([0]);
    });
  });

  describe('with metrics.token', () => {
    const token = 'scrape-me-0123456789';
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ overrides: { metrics: { enabled: true, token } } });
    });
    after(() => server?.close());

    it('needs Authorization: Bearer <token>, and answers 401 with WWW-Authenticate otherwise', async () => {
      for (const authorization of [
        undefined,
        `Bearer ${token}x`,
        `Bearer ${token.slice(0, -1)}`,
        `Basic ${Buffer.from(`x:${token}`).toString('base64')}`,
        token,
        'Bearer',
      ]) {
        const r = await server.http.get('/metrics', {
          headers: authorization === undefined ? {} : { authorization },
        });
        expect(r.status, String(authorization)).to.equal(401);
        expect(r.headers.get('www-authenticate')).to.equal('Bearer realm="metrics"');
        expect(r.body).to.deep.equal({
          ok: false,
          code: 'unauthorized',
          error: 'GET /metrics needs the metrics token: Authorization: Bearer <metrics.token>',
        });
      }
      for (const authorization of [`Bearer ${token}`, `bearer ${token}`, `Bearer  ${token} `]) {
        const r = await server.http.get('/metrics', { headers: { authorization } });
        expect(r.status, authorization).to.equal(200);
        expect(r.text).to.include('household_http_requests_total');
      }
      // An API key is no substitute.
      expect((await server.http.get('/metrics', { key: server.apiKey })).status).to.equal(401);
    });

    it('takes a token of 16 to 1024 printable characters without spaces', () => {
      const load = (t: unknown) =>
        loadConfig({ env: {}, overrides: { metrics: { enabled: true, token: t as string } } });
      expect(load('a'.repeat(16)).metrics.token).to.equal('a'.repeat(16));
      expect(load('a'.repeat(1024)).metrics.token).to.have.length(1024);
      for (const bad of [
        'a'.repeat(15),
        'a'.repeat(1025),
        'with a space 0123456789',
        'tab\there-0123456789',
        '',
      ]) {
        expect(() => load(bad), JSON.stringify(bad)).to.throw(
          ConfigError,
          /config key "metrics.token" is invalid: must be 16 to 1024 printable characters/,
        );
      }
      expect(() => load(Number('12345678901234567'))).to.throw(ConfigError, /"metrics.token"/);
    });
  });

  it('keeps one registry per daemon: two daemons in one process count apart', async () => {
    const a = await startTestServer({ overrides: { metrics: { enabled: true } } });
    const b = await startTestServer({ overrides: { metrics: { enabled: true } } });
    try {
      await a.api.get('/people');
      await a.api.get('/people');
      const key = { method: 'GET', route: PEOPLE, status: '200' };
      expect(value(await scrape(a), 'household_http_requests_total', key)).to.equal(2);
      expect(value(await scrape(b), 'household_http_requests_total', key)).to.equal(0);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
