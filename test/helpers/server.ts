/**
 * The server harness: a real daemon on an ephemeral port over a fresh LMDB folder, and a small
 * HTTP client (real fetch) that speaks its JSON.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { deepMerge, loadConfig, type Config, type DeepPartial } from '../../src/config.js';
import { startDaemon, type Daemon } from '../../src/server.js';
import { createFamily, createKey } from '../../src/family/admin.js';
import { createIdGenerator } from '../../src/domain/shared/ids.js';
import { createLogger } from '../../src/logger.js';
import type { AnyRoute } from '../../src/door/route.js';
import type { Logger } from 'pino';
import type { Egress } from '../../src/integrations/egress.js';
import type { BootstrapHooks } from '../../src/bootstrap.js';
import type { Scope } from '../../src/store/types.js';

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw body text (sent as-is); with `contentType` to test the wire rules. */
  raw?: string | Buffer;
  contentType?: string;
  key?: string | null;
  headers?: Record<string, string>;
}

export class Client {
  constructor(
    readonly baseUrl: string,
    public key: string | null,
  ) {}

  async request<T = any>(
    method: string,
    path: string,
    opts: RequestOptions = {},
  ): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    const key = opts.key === undefined ? this.key : opts.key;
    if (key) headers['x-api-key'] = key;
    let body: string | Buffer | undefined;
    if (opts.raw !== undefined) {
      body = opts.raw;
      if (opts.contentType) headers['content-type'] = opts.contentType;
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = opts.contentType ?? 'application/json';
    }
    const res = await fetch(this.baseUrl + path, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, opts?: RequestOptions) {
    return this.request<T>('GET', path, opts);
  }
  post<T = any>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('POST', path, { ...opts, body });
  }
  patch<T = any>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('PATCH', path, { ...opts, body });
  }
  delete<T = any>(path: string, opts?: RequestOptions) {
    return this.request<T>('DELETE', path, opts);
  }
}

export interface TestServer {
  daemon: Daemon;
  config: Config;
  dataDir: string;
  url: string;
  /** Admin key of the first family (`home`). */
  apiKey: string;
  slug: string;
  /** A client for the first family with its admin key; paths relative to /api/v1/families/home. */
  api: Client;
  /** A client without a key prefix, for any path. */
  http: Client;
  /** Makes another family with a key of the given scopes; returns a client scoped to it. */
  family(
    slug: string,
    opts?: { timezone?: string; scopes?: Scope[]; locale?: string },
  ): Promise<{ client: Client; key: string; slug: string }>;
  /** Another key for a family (default `home`). */
  key(opts: {
    scopes?: Scope[];
    personId?: string | null;
    name?: string;
    slug?: string;
  }): Promise<string>;
  /** Stops the daemon and removes its folder; with keepData the folder stays for a restart. */
  close(opts?: { keepData?: boolean }): Promise<void>;
}

export interface StartOptions {
  overrides?: DeepPartial<Config>;
  now?: () => Date;
  dataDir?: string;
  timezone?: string;
  logger?: Logger;
  /** The daemon's outbound client (e.g. one that trusts a local server under a stricter policy). */
  egress?: Egress;
  /** What the first start does instead of printing (with families.bootstrapSlug set). */
  hooks?: BootstrapHooks;
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'household-test-'));
}

export async function startTestServer(opts: StartOptions = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? tempDataDir();
  // The suite's own defaults, deep-merged with the test's overrides: a test that sets one
  // server key must never lose `port: 0` and bind the household's own 8080.
  const config = loadConfig({
    env: {},
    overrides: deepMerge(
      {
        server: { host: '127.0.0.1', port: 0, publicUrl: 'http://share.test' },
        storage: { dataDir },
        log: { level: 'silent' },
        rateLimit: { perMinute: 100_000, publicPerMinute: 100_000 },
        egress: { webPages: 'any', calendarFeeds: 'any', webhooks: 'any', transports: 'any' },
        families: { bootstrapSlug: null, defaultTimezone: opts.timezone ?? 'UTC' },
      },
      opts.overrides ?? {},
    ) as DeepPartial<Config>,
  });
  const logger = opts.logger ?? createLogger('silent');
  const now = opts.now ?? (() => new Date());
  const daemon = await startDaemon(config, {
    ...opts.hooks,
    logger,
    now,
    ...(opts.egress ? { egress: opts.egress } : {}),
  });
  const newId = createIdGenerator(
    () => now().getTime(),
    (n) => randomBytes(n),
  );
  let apiKey: string;
  const slug = 'home';
  const existing = daemon.store.getFamilyBySlug(slug);
  if (!existing) {
    const made = await createFamily(
      daemon.store,
      { slug, name: 'Home', timezone: opts.timezone ?? 'UTC' },
      { now: now(), newId, defaultTimezone: 'UTC', withKey: 'test admin' },
    );
    apiKey = made.apiKey!;
  } else {
    apiKey = (await createKey(daemon.store, slug, { name: 'test admin' }, now())).apiKey;
  }
  const api = new Client(`${daemon.url}/api/v1/families/${slug}`, apiKey);
  const http = new Client(daemon.url, null);
  return {
    daemon,
    config,
    dataDir,
    url: daemon.url,
    apiKey,
    slug,
    api,
    http,
    async family(s, o = {}) {
      const made = await createFamily(
        daemon.store,
        {
          slug: s,
          name: s,
          timezone: o.timezone ?? 'UTC',
          ...(o.locale ? { locale: o.locale } : {}),
        },
        { now: now(), newId, defaultTimezone: 'UTC', withKey: 'test admin' },
      );
      let key = made.apiKey!;
      if (o.scopes) key = (await createKey(daemon.store, s, { scopes: o.scopes }, now())).apiKey;
      return { client: new Client(`${daemon.url}/api/v1/families/${s}`, key), key, slug: s };
    },
    async key(o) {
      return (
        await createKey(
          daemon.store,
          o.slug ?? slug,
          { name: o.name, scopes: o.scopes, personId: o.personId ?? null },
          now(),
        )
      ).apiKey;
    },
    async close(o = {}) {
      await daemon.close();
      if (!o.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type { AnyRoute };
