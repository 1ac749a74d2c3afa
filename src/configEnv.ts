/**
 * The environment's part of the configuration: every variable, the config key it sets and how
 * its text is read, in one table (README, "Configuration"; `--help` lists them too). config.ts
 * merges what they set over the files.
 */

/**
 * How an environment variable's text is read: as it is, a whole number, a number, a
 * comma-separated list, a switch, or null when empty (`emptyIsNull`) or blank (`blankIsNull`).
 */
type EnvRead = 'text' | 'integer' | 'number' | 'list' | 'flag' | 'emptyIsNull' | 'blankIsNull';
/** One environment variable: the config key it sets and how its text is read. */
type EnvRow = readonly [name: string, key: string, read: EnvRead];

/** Every environment variable, section by section. */
const ENV: readonly EnvRow[] = [
  ['HOUSEHOLD_LOG_LEVEL', 'log.level', 'text'],
  ['HOUSEHOLD_LOG_FORMAT', 'log.format', 'text'],
  ['HOUSEHOLD_METRICS', 'metrics.enabled', 'flag'],
  // The token stays out of a checked-in file this way; setting one does not switch metrics on.
  ['HOUSEHOLD_METRICS_TOKEN', 'metrics.token', 'emptyIsNull'],
  ['HOUSEHOLD_BACKUP_EVERY', 'backup.every', 'blankIsNull'],
  ['HOUSEHOLD_BACKUP_KEEP', 'backup.keep', 'integer'],
  ['HOUSEHOLD_BACKUP_DIR', 'backup.dir', 'text'],
  ['HOUSEHOLD_PORT', 'server.port', 'integer'],
  ['HOUSEHOLD_HOST', 'server.host', 'text'],
  // Empty: no fixed address (links follow each request), so compose files can pass it through.
  ['HOUSEHOLD_PUBLIC_URL', 'server.publicUrl', 'blankIsNull'],
  ['HOUSEHOLD_TRUSTED_PROXIES', 'server.trustedProxies', 'list'],
  ['HOUSEHOLD_DATA_DIR', 'storage.dataDir', 'text'],
  ['HOUSEHOLD_NATS_SERVERS', 'cluster.natsServers', 'list'],
  ['HOUSEHOLD_NODE_NAME', 'cluster.nodeName', 'text'],
  ['HOUSEHOLD_ADVERTISE_URL', 'cluster.advertiseUrl', 'text'],
  // The secret may come from the environment so that it stays out of a checked-in file.
  ['HOUSEHOLD_CLUSTER_SECRET', 'cluster.secret', 'text'],
  ['HOUSEHOLD_LEASE_SECONDS', 'cluster.leaseSeconds', 'number'],
];

/** A variable's value as its row says to read it; a bad switch or number stops the start. */
function readEnv(
  name: string,
  value: string,
  read: EnvRead,
  refuse: (message: string) => Error,
): unknown {
  switch (read) {
    case 'text':
      return value;
    case 'number':
      return Number(value);
    case 'integer': {
      const n = Number(value);
      if (!Number.isInteger(n)) throw refuse(`${name} must be a whole number, got "${value}"`);
      return n;
    }
    case 'list':
      return value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    case 'flag': {
      const v = value.trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(v)) return true;
      if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
      throw refuse(`${name} must be 1 or 0 (true or false), got "${value}"`);
    }
    case 'emptyIsNull':
      return value === '' ? null : value;
    case 'blankIsNull':
      return value.trim() === '' ? null : value;
  }
}

/** What the environment sets; a value that cannot be read is refused with `refuse`'s error. */
export function envOverrides(
  env: NodeJS.ProcessEnv,
  refuse: (message: string) => Error,
): Record<string, unknown> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, key, read] of ENV) {
    const value = env[name];
    if (value === undefined) continue;
    const [section, field] = key.split('.');
    (out[section] ??= {})[field] = readEnv(name, value, read, refuse);
  }
  return out;
}
