/**
 * Configuration: `config/default.json`, deep-merged with the file named by `--config` or
 * `HOUSEHOLD_CONFIG`, then environment variables, then command-line flags (README.md).
 * The merged result is validated with superstruct; an unknown or ill-typed key stops the start
 * with a message naming it.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  array,
  boolean,
  enums,
  integer,
  min,
  nullable,
  number,
  object,
  optional,
  refine,
  size,
  string,
  validate,
  type Infer,
} from 'superstruct';
import ipaddr from 'ipaddr.js';
import { normalizeTimeZone } from './domain/shared/time.js';
import { parseEvery } from './backupEvery.js';

const Egress = enums(['public', 'lan', 'any']);
const Url = size(string(), 1, 2048);

/**
 * A browser origin as browsers send it in `Origin` (scheme, host, port if not the default; no
 * path, no trailing slash, lower case), or `*` for any origin. Compared as written, so it must
 * be written the way the browser sends it.
 */
const Origin = refine(size(string(), 1, 2048), 'Origin', (value) => {
  if (value === '*') return true;
  let origin: string;
  try {
    origin = new URL(value).origin;
  } catch {
    origin = 'null';
  }
  return (
    (origin !== 'null' && origin === value && /^https?:/.test(value)) ||
    `must be "*" or an origin such as http://tablet.local:3000 (scheme, host and port as a browser sends them: no path, no trailing slash, lower case), got "${value}"`
  );
});

/** A NATS server as the client dials it: `nats://`, `tls://` or `ws(s)://` host and port. */
const NatsUrl = refine(size(string(), 1, 2048), 'NatsUrl', (value) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `must be a URL such as nats://10.0.0.5:4222, got "${value}"`;
  }
  return (
    (['nats:', 'tls:', 'ws:', 'wss:'].includes(url.protocol) && url.hostname !== '') ||
    `must be a nats://, tls://, ws:// or wss:// URL with a host, got "${value}"`
  );
});

/**
 * `server.publicUrl`: the address people and devices use, when the operator fixes one (a name
 * behind a reverse proxy, a path prefix). An http(s) URL without credentials, query or
 * fragment: links are made by appending paths to it.
 */
const PublicUrl = refine(Url, 'PublicUrl', (value) => {
  const why = `must be an http:// or https:// URL such as https://household.example.org or http://192.168.1.20:8080 (no query, fragment or user name), or null, got "${value}"`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return why;
  }
  return (
    (/^https?:$/.test(url.protocol) &&
      url.hostname !== '' &&
      !url.search &&
      !url.hash &&
      !url.username &&
      !url.password) ||
    why
  );
});

/** One entry of `server.trustedProxies`: an IP address or a CIDR range (IPv4 or IPv6). */
const ProxyAddress = refine(size(string(), 1, 64), 'ProxyAddress', (value) => {
  const v = value.trim();
  return (
    ipaddr.isValid(v) ||
    ipaddr.isValidCIDR(v) ||
    `must be an IP address or a CIDR range such as 172.16.0.0/12 or fd00::/8, got "${value}"`
  );
});

/** `backup.every`: a duration (`6h`, `1d`) or a cron pattern (src/backupEvery.ts). */
const BackupEveryText = refine(size(string(), 1, 200), 'BackupEvery', (value) => {
  const parsed = parseEvery(value);
  return typeof parsed === 'string' ? parsed : true;
});

/** How other nodes reach this one over HTTP (forwarded requests go there). */
const HttpUrl = refine(Url, 'HttpUrl', (value) => {
  const why = `must be an http:// or https:// URL, got "${value}"`;
  try {
    return /^https?:$/.test(new URL(value).protocol) || why;
  } catch {
    return why;
  }
});

/**
 * Cluster mode (docs/scaling.md): absent (null) is the single embedded node. `leaseSeconds`,
 * `credsFile` and `tls` may be left out (defaults in CLUSTER_DEFAULTS).
 */
const ClusterStruct = object({
  natsServers: size(array(NatsUrl), 1, 64),
  /** Unique per node: the lease holder's name, in logs and metrics. */
  nodeName: refine(
    string(),
    'NodeName',
    (v) =>
      /^[A-Za-z0-9_-]{1,64}$/.test(v) || `must be 1 to 64 letters, digits, "-" or "_", got "${v}"`,
  ),
  advertiseUrl: HttpUrl,
  /** Shared by every node: the HMAC key of forwarded requests. */
  secret: refine(
    string(),
    'ClusterSecret',
    (t) =>
      (t.length >= 32 && t.length <= 1024) ||
      'must be 32 to 1024 characters (every node signs forwarded requests with it)',
  ),
  leaseSeconds: size(integer(), 1, 300),
  /**
   * Copies JetStream keeps of the log and the leases (1, 3 or 5; never more than the servers):
   * 3 on the usual three servers, so one may be lost without losing a write.
   */
  replicas: refine(integer(), 'Replicas', (n) => [1, 3, 5].includes(n) || 'must be 1, 3 or 5'),
  /** A NATS `.creds` file (JWT + nkey), or null. */
  credsFile: nullable(size(string(), 1, 4096)),
  /** TLS to NATS: files in PEM; null for a plain connection. */
  tls: nullable(
    object({
      caFile: nullable(size(string(), 1, 4096)),
      certFile: nullable(size(string(), 1, 4096)),
      keyFile: nullable(size(string(), 1, 4096)),
    }),
  ),
});

export const CLUSTER_DEFAULTS = {
  leaseSeconds: 10,
  replicas: 3,
  credsFile: null,
  tls: null,
} as const;

export const ConfigStruct = object({
  server: object({
    host: string(),
    port: size(integer(), 0, 65535),
    /** null: links follow the address each request came to (src/addresses.ts). */
    publicUrl: nullable(PublicUrl),
    bodyLimitBytes: min(integer(), 1),
    /**
     * Peers whose `X-Forwarded-For`, `-Host` and `-Proto` count (reverse proxies): IPs and
     * CIDR ranges. Anyone else's are ignored.
     */
    trustedProxies: array(ProxyAddress),
    /**
     * Deprecated (docs/upgrading.md): `true` trusts every peer's headers, one hop deep, as
     * before `trustedProxies`; refused together with a non-empty `trustedProxies`.
     */
    trustProxy: optional(boolean()),
    /** Browser origins allowed to call the API (CORS); none by default. */
    corsOrigins: array(Origin),
  }),
  storage: object({ dataDir: size(string(), 1, 4096), mapSizeMiB: min(integer(), 1) }),
  families: object({
    /** null: the machine's zone (see defaultFamilyZone). */
    defaultTimezone: nullable(string()),
    bootstrapSlug: nullable(string()),
    /**
     * The first family waits for the setup page (`/`, guarded by a setup code printed at each
     * start) instead of printing an admin key; `serve --no-setup` turns it off.
     */
    firstRunSetup: boolean(),
    actorIdleMinutes: min(number(), 0),
    maxActiveActors: min(integer(), 1),
  }),
  rateLimit: object({ perMinute: min(integer(), 1), publicPerMinute: min(integer(), 1) }),
  scheduler: object({ catchUpMinutes: min(integer(), 0) }),
  egress: object({ webPages: Egress, calendarFeeds: Egress, webhooks: Egress, transports: Egress }),
  calendarFeeds: object({
    refreshMinutes: min(integer(), 1),
    maxBytes: min(integer(), 1),
    timeoutMs: min(integer(), 1),
  }),
  webhooks: object({
    timeoutMs: min(integer(), 1),
    retryScheduleSeconds: array(min(integer(), 0)),
  }),
  weather: object({ forecastUrl: Url, geocodingUrl: Url }),
  webSearch: object({ searxngUrl: nullable(Url) }),
  email: object({ smtpUrl: nullable(Url), from: string() }),
  push: object({ ntfyUrl: nullable(Url) }),
  sms: object({ gatewayUrl: nullable(Url) }),
  log: object({
    level: enums(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    /** `auto`: readable lines on a terminal, JSON lines otherwise (src/logger.ts). */
    format: enums(['auto', 'json', 'pretty']),
  }),
  /** `GET /metrics` in Prometheus text; with a token, only for `Authorization: Bearer <token>`. */
  metrics: object({
    enabled: boolean(),
    token: nullable(
      refine(
        string(),
        'MetricsToken',
        (t) =>
          (t.length >= 16 && t.length <= 1024 && /^[\x21-\x7e]+$/.test(t)) ||
          'must be 16 to 1024 printable characters without spaces (a scraper sends it in a header), or null',
      ),
    ),
  }),
  /**
   * The live change stream (docs/api.md): a comment every `heartbeatSeconds` keeps proxies from
   * closing a quiet stream; a reader more than `maxBacklog` records behind is dropped; at most
   * `perKey` streams are open per API key at once.
   */
  stream: object({
    heartbeatSeconds: size(integer(), 1, 3600),
    maxBacklog: size(integer(), 1, 1_000_000),
    perKey: size(integer(), 1, 1000),
  }),
  /**
   * The family display (docs/display.md): how many days it shows, how long a forecast is kept,
   * and how many actions one interactive display may send a minute.
   */
  display: object({
    days: size(integer(), 1, 7),
    weatherMinutes: size(integer(), 1, 1440),
    actionsPerMinute: size(integer(), 1, 10_000),
  }),
  /**
   * Scheduled backups (docs/operations.md): off while `every` is null; each one a consistent
   * copy of the store in `<dir>/<UTC time>/`, the newest `keep` kept. `dir` null:
   * `<storage.dataDir>/backups`.
   */
  backup: object({
    every: nullable(BackupEveryText),
    keep: size(integer(), 1, 1000),
    dir: nullable(size(string(), 1, 4096)),
  }),
  cluster: nullable(ClusterStruct),
});

export type ClusterConfig = Infer<typeof ClusterStruct>;

export type Config = Infer<typeof ConfigStruct>;

/**
 * The zone of a family created without one: `families.defaultTimezone`, or when that is null
 * the machine's — `TZ` when it names an IANA zone, else the system's (what Intl resolves),
 * else UTC. A household runs the daemon where it lives, so this is nearly always its zone.
 */
export function defaultFamilyZone(
  config: Pick<Config, 'families'>,
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (config.families.defaultTimezone !== null) return config.families.defaultTimezone;
  for (const candidate of [
    env.TZ?.replace(/^:/, ''),
    Intl.DateTimeFormat().resolvedOptions().timeZone,
  ]) {
    const zone = candidate ? normalizeTimeZone(candidate) : null;
    if (zone) return zone;
  }
  return 'UTC';
}

export class ConfigError extends Error {}

/**
 * `server.publicUrl` without trailing slashes: the base links are built on when the operator
 * set one, whichever way it was written.
 */
export function publicBase(publicUrl: string): string {
  return publicUrl.replace(/\/+$/, '');
}

/** The folder scheduled backups go to: `backup.dir`, or `backups` inside the data folder. */
export function backupDir(config: Pick<Config, 'backup' | 'storage'>): string {
  return config.backup.dir ?? join(config.storage.dataDir, 'backups');
}

export interface ConfigSources {
  /** Path of an extra JSON file (`--config`); falls back to `HOUSEHOLD_CONFIG`. */
  configFile?: string | undefined;
  env?: NodeJS.ProcessEnv;
  flags?: {
    port?: number | undefined;
    host?: string | undefined;
    dataDir?: string | undefined;
    /** `--no-setup`: false. */
    setup?: boolean | undefined;
  };
  /** Already-parsed overrides applied after the file (used by tests and the bench). */
  overrides?: DeepPartial<Config>;
}

export type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends object ? (T[K] extends unknown[] ? T[K] : DeepPartial<T[K]>) : T[K];
};

const here = dirname(fileURLToPath(import.meta.url));
/** `config/default.json` from the package root, both from `src/` and from `dist/src/`. */
export function defaultConfigPath(): string {
  const candidates = [
    resolve(here, '../config/default.json'),
    resolve(here, '../../config/default.json'),
  ];
  for (const c of candidates) {
    try {
      readFileSync(c);
      return c;
    } catch {
      /* try the next */
    }
  }
  throw new ConfigError('config/default.json not found next to the program');
}

function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`cannot read config file ${path}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`config file ${path} is not valid JSON: ${(e as Error).message}`);
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Objects merge key by key; arrays and scalars replace. */
export function deepMerge(base: unknown, over: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(over)) return over === undefined ? base : over;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = k in base ? deepMerge(base[k], v) : v;
  return out;
}

/** A comma-separated list in one variable (NATS servers, trusted proxies). */
function list(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** `1`/`true`/`yes`/`on` or `0`/`false`/`no`/`off`; anything else stops the start. */
function flag(name: string, value: string): boolean {
  const v = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
  throw new ConfigError(`${name} must be 1 or 0 (true or false), got "${value}"`);
}

function serverEnv(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const server: Record<string, unknown> = {};
  if (env.HOUSEHOLD_PORT !== undefined) {
    const port = Number(env.HOUSEHOLD_PORT);
    if (!Number.isInteger(port))
      throw new ConfigError(`HOUSEHOLD_PORT must be a whole number, got "${env.HOUSEHOLD_PORT}"`);
    server.port = port;
  }
  if (env.HOUSEHOLD_HOST !== undefined) server.host = env.HOUSEHOLD_HOST;
  // Empty: no fixed address (links follow each request), so compose files can pass it through.
  if (env.HOUSEHOLD_PUBLIC_URL !== undefined)
    server.publicUrl = env.HOUSEHOLD_PUBLIC_URL.trim() === '' ? null : env.HOUSEHOLD_PUBLIC_URL;
  if (env.HOUSEHOLD_TRUSTED_PROXIES !== undefined)
    server.trustedProxies = list(env.HOUSEHOLD_TRUSTED_PROXIES);
  return server;
}

/** Logs, metrics and backups: what an operator switches from a container's environment. */
function operationsEnv(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const log: Record<string, unknown> = {};
  if (env.HOUSEHOLD_LOG_LEVEL !== undefined) log.level = env.HOUSEHOLD_LOG_LEVEL;
  if (env.HOUSEHOLD_LOG_FORMAT !== undefined) log.format = env.HOUSEHOLD_LOG_FORMAT;
  if (Object.keys(log).length) out.log = log;
  const metrics: Record<string, unknown> = {};
  if (env.HOUSEHOLD_METRICS !== undefined)
    metrics.enabled = flag('HOUSEHOLD_METRICS', env.HOUSEHOLD_METRICS);
  // The token stays out of a checked-in file this way; setting one does not switch metrics on.
  if (env.HOUSEHOLD_METRICS_TOKEN !== undefined)
    metrics.token = env.HOUSEHOLD_METRICS_TOKEN === '' ? null : env.HOUSEHOLD_METRICS_TOKEN;
  if (Object.keys(metrics).length) out.metrics = metrics;
  const backup: Record<string, unknown> = {};
  if (env.HOUSEHOLD_BACKUP_EVERY !== undefined)
    backup.every = env.HOUSEHOLD_BACKUP_EVERY.trim() === '' ? null : env.HOUSEHOLD_BACKUP_EVERY;
  if (env.HOUSEHOLD_BACKUP_KEEP !== undefined) {
    const keep = Number(env.HOUSEHOLD_BACKUP_KEEP);
    if (!Number.isInteger(keep))
      throw new ConfigError(
        `HOUSEHOLD_BACKUP_KEEP must be a whole number, got "${env.HOUSEHOLD_BACKUP_KEEP}"`,
      );
    backup.keep = keep;
  }
  if (env.HOUSEHOLD_BACKUP_DIR !== undefined) backup.dir = env.HOUSEHOLD_BACKUP_DIR;
  if (Object.keys(backup).length) out.backup = backup;
  return out;
}

function clusterEnv(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const cluster: Record<string, unknown> = {};
  if (env.HOUSEHOLD_NATS_SERVERS !== undefined)
    cluster.natsServers = list(env.HOUSEHOLD_NATS_SERVERS);
  if (env.HOUSEHOLD_NODE_NAME !== undefined) cluster.nodeName = env.HOUSEHOLD_NODE_NAME;
  if (env.HOUSEHOLD_ADVERTISE_URL !== undefined) cluster.advertiseUrl = env.HOUSEHOLD_ADVERTISE_URL;
  // The secret may come from the environment so that it stays out of a checked-in file.
  if (env.HOUSEHOLD_CLUSTER_SECRET !== undefined) cluster.secret = env.HOUSEHOLD_CLUSTER_SECRET;
  if (env.HOUSEHOLD_LEASE_SECONDS !== undefined)
    cluster.leaseSeconds = Number(env.HOUSEHOLD_LEASE_SECONDS);
  return cluster;
}

function envOverrides(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const out: Record<string, unknown> = operationsEnv(env);
  const server = serverEnv(env);
  if (Object.keys(server).length) out.server = server;
  if (env.HOUSEHOLD_DATA_DIR !== undefined) out.storage = { dataDir: env.HOUSEHOLD_DATA_DIR };
  const cluster = clusterEnv(env);
  if (Object.keys(cluster).length) out.cluster = cluster;
  return out;
}

/** Loads, merges and validates the configuration; throws ConfigError naming the bad key. */
export function loadConfig(sources: ConfigSources = {}): Config {
  const env = sources.env ?? process.env;
  let merged = readJson(defaultConfigPath());
  const file = sources.configFile ?? env.HOUSEHOLD_CONFIG;
  if (file) merged = deepMerge(merged, readJson(resolve(file)));
  if (sources.overrides) merged = deepMerge(merged, sources.overrides);
  merged = deepMerge(merged, envOverrides(env));
  const f = sources.flags ?? {};
  const flagOver: Record<string, unknown> = {};
  if (f.port !== undefined || f.host !== undefined) {
    flagOver.server = {
      ...(f.port !== undefined ? { port: f.port } : {}),
      ...(f.host !== undefined ? { host: f.host } : {}),
    };
  }
  if (f.dataDir !== undefined) flagOver.storage = { dataDir: f.dataDir };
  if (f.setup !== undefined) flagOver.families = { firstRunSetup: f.setup };
  merged = deepMerge(merged, flagOver);
  // A cluster section fills in its optional keys; none at all stays null (one embedded node).
  if (isPlainObject(merged) && isPlainObject(merged.cluster)) {
    merged = { ...merged, cluster: deepMerge(CLUSTER_DEFAULTS, merged.cluster) };
  }
  const [err, value] = validate(merged, ConfigStruct);
  if (err) {
    const failure = err.failures()[0];
    const key = failure.path.join('.');
    const unknown = failure.type === 'never';
    throw new ConfigError(
      unknown
        ? `unknown config key "${key}"`
        : `config key "${key}" is invalid: ${failure.message}`,
    );
  }
  checkTogether(value);
  return value;
}

/** Keys that are valid alone but not together. */
function checkTogether(c: Config): void {
  if (c.server.trustProxy === true && c.server.trustedProxies.length > 0)
    throw new ConfigError(
      'config key "server.trustProxy" is invalid: it is replaced by server.trustedProxies; remove trustProxy (docs/upgrading.md)',
    );
  // A cluster node's store follows the replicated log and holds only what the node has seen:
  // a copy of it is no backup. The cluster's own backup is `household-organizer backup` on it.
  if (c.cluster && c.backup.every !== null)
    throw new ConfigError(
      'config key "backup.every" is invalid: scheduled backups are for the embedded store; on a cluster run `household-organizer backup <dir>` with the cluster configuration from cron (docs/scaling.md)',
    );
}
