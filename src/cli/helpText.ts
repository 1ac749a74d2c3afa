/**
 * The command line's help as data: one table of commands (usage, options, examples) that
 * `--help` prints (help.ts) and main.ts checks options against, the options every command
 * takes, the environment variables and the exit codes (README, "Command line", says the same).
 *
 * A new command adds its row to COMMANDS, its options to OPTIONS, and its case in main.ts.
 */
import { EXIT } from './exit.js';

export interface OptionSpec {
  /** As parseArgs knows it: `person` for `--person`. */
  name: string;
  /** The value's placeholder (`ID`), absent for a switch. */
  value?: string;
  text: string;
}

export interface CommandSpec {
  /** `serve`, `family create`. */
  name: string;
  /** Positional arguments, in order (`<slug>`); optional ones in brackets. */
  args: string[];
  summary: string;
  /** Paragraph lines after the usage line. */
  details: string[];
  options: OptionSpec[];
  examples: string[];
}

export const BIN = 'household-organizer';

export const GLOBAL_OPTIONS: OptionSpec[] = [
  {
    name: 'data-dir',
    value: 'DIR',
    text: 'the folder holding the store (default ./data; HOUSEHOLD_DATA_DIR, storage.dataDir)',
  },
  {
    name: 'config',
    value: 'FILE',
    text: 'a JSON file deep-merged over config/default.json (HOUSEHOLD_CONFIG)',
  },
  { name: 'json', text: 'machine-readable output (one JSON object on stdout)' },
  { name: 'help', text: 'this help (-h); `<command> --help` for one command' },
  { name: 'version', text: 'print the version and exit' },
];

export const COMMANDS: CommandSpec[] = [
  {
    name: 'serve',
    args: [],
    summary: 'run the daemon',
    details: [
      'Serves the API, the share pages and feeds, and runs scheduled jobs (and backups with backup.every).',
      'Logs go to stdout: readable on a terminal, JSON lines otherwise (log.format). The first start on an',
      'empty store creates family "home" and prints, on stderr, its admin key, the addresses and the setup',
      'code its setup page at / asks for (a new code at each start until it is set up; not with --no-setup).',
      'SIGTERM or SIGINT stop it cleanly within 10 s (in-flight requests finish, writes are committed).',
    ],
    options: [
      {
        name: 'port',
        value: 'N',
        text: 'port to listen on; 0 picks a free one (HOUSEHOLD_PORT, server.port; default 8080)',
      },
      {
        name: 'host',
        value: 'H',
        text: 'address to listen on (HOUSEHOLD_HOST, server.host; default 0.0.0.0, every interface)',
      },
      {
        name: 'no-setup',
        text: 'the first family does not wait for the setup page; only its admin key is printed (families.firstRunSetup)',
      },
    ],
    examples: [
      `${BIN} serve`,
      `${BIN} serve --port 9000 --host 127.0.0.1 --data-dir /var/lib/household`,
      `HOUSEHOLD_PUBLIC_URL=https://household.example.org HOUSEHOLD_TRUSTED_PROXIES=127.0.0.1 ${BIN} serve`,
      `HOUSEHOLD_BACKUP_EVERY=1d HOUSEHOLD_BACKUP_KEEP=14 ${BIN} serve`,
    ],
  },
  {
    name: 'family create',
    args: ['<slug>'],
    summary: 'create a family and its admin API key',
    details: [
      'Creates a family with the built-in collections and an admin key, shown only once.',
      'With --json: {"family": {"id", "slug", "name", "timezone", "locale"}, "apiKey"}. Works while serve runs.',
    ],
    options: [
      { name: 'name', value: 'N', text: 'display name (default: the slug)' },
      {
        name: 'timezone',
        value: 'TZ',
        text: "IANA time zone, e.g. Europe/Berlin (default: families.defaultTimezone, else this machine's)",
      },
      {
        name: 'locale',
        value: 'TAG',
        text: 'language and formats, e.g. de-DE or en-US (default: en)',
      },
    ],
    examples: [
      `${BIN} family create smiths --name "The Smiths" --timezone Europe/London`,
      `${BIN} family create jones --json`,
    ],
  },
  {
    name: 'family update',
    args: ['<slug>'],
    summary: "change a family's name, time zone, place or language",
    details: [
      'The place (a name such as "Berlin" or "52.52,13.40") gives contextual briefings their weather;',
      'an empty --location removes it. A running daemon applies the change within a second and',
      're-plans reminders and routines for a new zone; with none running it is applied at the next start.',
      '--locale (a BCP 47 tag such as de-DE) is the language and formats of its display, pages and messages.',
      'With --json: {"family": {"id", "slug", "name", "timezone", "location", "locale"}, "applied"}.',
    ],
    options: [
      { name: 'name', value: 'N', text: 'display name' },
      { name: 'timezone', value: 'TZ', text: 'IANA time zone, e.g. Europe/Berlin' },
      { name: 'location', value: 'PLACE', text: 'a place name or lat,lon; "" removes it' },
      { name: 'locale', value: 'TAG', text: 'language and formats, e.g. de-DE, en-US, ar-EG' },
    ],
    examples: [
      `${BIN} family update smiths --location "Berlin"`,
      `${BIN} family update smiths --timezone Europe/Berlin --json`,
      `${BIN} family update smiths --locale de-DE`,
    ],
  },
  {
    name: 'family list',
    args: [],
    summary: 'list the families',
    details: ['One line per family: slug, name, time zone and id.'],
    options: [],
    examples: [`${BIN} family list`, `${BIN} family list --json`],
  },
  {
    name: 'key create',
    args: ['<slug>'],
    summary: 'create an API key for a family',
    details: [
      'Prints the key once. All three scopes unless --scopes says otherwise.',
      'With --json: {"key": {"id", "name", "scopes", "personId"}, "apiKey"}. Works while serve runs.',
    ],
    options: [
      {
        name: 'scopes',
        value: 'LIST',
        text: 'comma-separated: read (GET), write (changes), admin (shares, webhooks…)',
      },
      { name: 'person', value: 'ID', text: 'the household member the key acts for (person_…)' },
      { name: 'name', value: 'N', text: 'a name to recognise the key by in `key list`' },
    ],
    examples: [
      `${BIN} key create home --scopes read --name "kitchen tablet"`,
      `${BIN} key create home --person person_01kaq5m2v8x3c4d5e6f7 --name "Ana's phone"`,
    ],
  },
  {
    name: 'open',
    args: ['<slug>'],
    summary: 'print a one-time link that signs a browser in to the household pages',
    details: [
      'The link signs its first user in as an admin of the family; it works once, for 10 minutes.',
      'It points at server.publicUrl, else at this machine on server.port (docs/pages.md).',
    ],
    options: [
      {
        name: 'port',
        value: 'N',
        text: 'the port of the link when server.publicUrl is not set (default server.port)',
      },
    ],
    examples: [`${BIN} open home`, `${BIN} open home --port 9000 --json`],
  },
  {
    name: 'key list',
    args: ['<slug>'],
    summary: "list a family's keys (never their secrets)",
    details: ['One line per key: id, name, scopes, person, state and last use.'],
    options: [],
    examples: [`${BIN} key list home`, `${BIN} key list home --json`],
  },
  {
    name: 'key revoke',
    args: ['<keyId>'],
    summary: 'revoke a key at once',
    details: ['The key stops working with the next request, also against a running daemon.'],
    options: [],
    examples: [`${BIN} key revoke k8f3h2j4m6n9`],
  },
  {
    name: 'grant list',
    args: ['<slug>'],
    summary: 'list the OAuth grants of assistants (MCP clients)',
    details: [
      'One line per grant: id, assistant, scopes, approving key, state. Grants are made on the consent page (docs/oauth.md).',
    ],
    options: [],
    examples: [`${BIN} grant list home`, `${BIN} grant list home --json`],
  },
  {
    name: 'grant revoke',
    args: ['<grantId>'],
    summary: "revoke an assistant's grant at once",
    details: ['Its tokens stop working with the next request, also against a running daemon.'],
    options: [],
    examples: [`${BIN} grant revoke grant_01kaq5m2v8x3c4d5e6f7`],
  },
  {
    name: 'backup',
    args: ['<dir>'],
    summary: 'consistent copy of the store, safe while serving',
    details: [
      'Writes <dir>/household.mdb (folder 0700, file 0600); refuses if that file exists.',
      'Restore: stop the daemon, copy the file back as <data-dir>/household.mdb, start it (docs/operations.md, "Restore").',
      'serve writes the same copy on a schedule with backup.every (HOUSEHOLD_BACKUP_EVERY), keeping backup.keep of them.',
      'On a cluster: one export per family (<slug>.json) and manifest.json; `cluster restore` reads it.',
    ],
    options: [],
    examples: [
      `${BIN} backup /var/backups/household/$(date +%Y-%m-%d)`,
      'docker compose exec household household-organizer backup /backups/$(date -u +%Y%m%dT%H%M%SZ)',
    ],
  },
  {
    name: 'export',
    args: ['<slug>'],
    summary: 'one family as JSON',
    details: [
      'Records, change log, key hashes and live plan-share tokens: keep the file private.',
      'Without --out the JSON goes to stdout.',
    ],
    options: [{ name: 'out', value: 'FILE', text: 'write to FILE (0600) instead of stdout' }],
    examples: [`${BIN} export smiths --out smiths.json`, `${BIN} export smiths > smiths.json`],
  },
  {
    name: 'import',
    args: ['<file>'],
    summary: 'restore a family export',
    details: [
      'Restores ids, order and change log exactly, into a store without that family.',
      'A new, empty --data-dir becomes a new store (a restore onto a fresh machine).',
    ],
    options: [],
    examples: [`${BIN} import smiths.json --data-dir /var/lib/household`],
  },
  {
    name: 'cluster restore',
    args: ['<dir>'],
    summary: 'put a cluster backup into a cluster',
    details: [
      'Reads a folder written by `backup` on a cluster and puts every family into the cluster of the',
      'configuration (its cluster section or HOUSEHOLD_NATS_SERVERS …). Refuses, writing nothing and',
      'naming it, when a family, key or share link of the backup is in the cluster already.',
    ],
    options: [],
    examples: [
      `HOUSEHOLD_CONFIG=/etc/household/cluster.json ${BIN} cluster restore /backups/2026-11-27`,
    ],
  },
  {
    name: 'cluster import',
    args: ['<data-dir>'],
    summary: 'move the families of an embedded store into a cluster',
    details: [
      'Reads every family of the store in <data-dir> (stop its daemon first; the store is not changed)',
      'and puts it into the cluster of the configuration, keys and change log included. Refuses,',
      'writing nothing and naming it, when one of its families is in the cluster already.',
    ],
    options: [],
    examples: [
      `HOUSEHOLD_CONFIG=/etc/household/cluster.json ${BIN} cluster import /var/lib/household`,
    ],
  },
];

export const ENVIRONMENT: [string, string][] = [
  ['HOUSEHOLD_CONFIG', 'a JSON config file (like --config)'],
  ['HOUSEHOLD_DATA_DIR', 'storage.dataDir (like --data-dir)'],
  ['HOUSEHOLD_HOST', 'server.host (like --host)'],
  ['HOUSEHOLD_PORT', 'server.port (like --port)'],
  [
    'HOUSEHOLD_PUBLIC_URL',
    'server.publicUrl: the one address people and devices use (unset or empty: links follow each request)',
  ],
  [
    'HOUSEHOLD_TRUSTED_PROXIES',
    'server.trustedProxies, comma-separated IPs or CIDR ranges whose X-Forwarded-* count',
  ],
  ['HOUSEHOLD_LOG_LEVEL', 'log.level: fatal, error, warn, info, debug, trace or silent'],
  ['HOUSEHOLD_LOG_FORMAT', 'log.format: auto (readable on a terminal, else JSON), json or pretty'],
  ['HOUSEHOLD_METRICS', 'metrics.enabled: 1 serves GET /metrics'],
  ['HOUSEHOLD_METRICS_TOKEN', 'metrics.token: the bearer token /metrics then needs'],
  [
    'HOUSEHOLD_BACKUP_EVERY',
    'backup.every: 6h, 1d, a cron pattern such as "0 3 * * *"; empty: off',
  ],
  ['HOUSEHOLD_BACKUP_KEEP', 'backup.keep: how many scheduled backups stay (7)'],
  ['HOUSEHOLD_BACKUP_DIR', 'backup.dir: where they go (default <data dir>/backups)'],
  [
    'HOUSEHOLD_NATS_SERVERS',
    'cluster.natsServers, comma-separated: with it, every command acts on the cluster',
  ],
  ['HOUSEHOLD_NODE_NAME', 'cluster.nodeName (the command line adds -cli-<random>)'],
  ['HOUSEHOLD_ADVERTISE_URL', 'cluster.advertiseUrl: how other nodes reach this one'],
  ['HOUSEHOLD_CLUSTER_SECRET', 'cluster.secret, shared by every node'],
  ['HOUSEHOLD_LEASE_SECONDS', 'cluster.leaseSeconds'],
];

export const EXIT_CODES: [number, string][] = [
  [EXIT.ok, 'ok'],
  [
    EXIT.refused,
    'refused or not done: slug taken, no such family or key, backup target exists, a path that cannot be written',
  ],
  [
    EXIT.usage,
    'usage: unknown command or option, missing argument, no store in the --data-dir folder',
  ],
  [EXIT.internal, 'internal error: a bug (the message and a stack trace are printed)'],
  [
    EXIT.config,
    'configuration or environment: a bad config key, a newer store, a data folder that cannot be written, a port in use',
  ],
];
