/**
 * Configuration: `config/default.json`, deep-merged with the file named by `--config` or
 * `HOUSEHOLD_CONFIG`, then environment variables (configEnv.ts), then command-line flags
 * (README.md). The merged result is validated with superstruct; an unknown or ill-typed key stops
 * the start with a message naming it. The cluster section is described in configCluster.ts.
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
import { CLUSTER_DEFAULTS, ClusterStruct } from './configCluster.js';
import { envOverrides } from './configEnv.js';

export type { ClusterConfig } from './configCluster.js';

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

/** Loads, merges and validates the configuration; throws ConfigError naming the bad key. */
export function loadConfig(sources: ConfigSources = {}): Config {
  const env = sources.env ?? process.env;
  let merged = readJson(defaultConfigPath());
  const file = sources.configFile ?? env.HOUSEHOLD_CONFIG;
  if (file) merged = deepMerge(merged, readJson(resolve(file)));
  if (sources.overrides) merged = deepMerge(merged, sources.overrides);
  merged = deepMerge(
    merged,
    envOverrides(env, (message) => new ConfigError(message)),
  );
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
