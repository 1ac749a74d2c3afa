/**
 * The command line's help and start-up output through the real executable: `--help` with the
 * environment and exit codes, each command's usage, options and examples (and every example a
 * valid command line), `--version`, options a command does not take, and what `serve` prints
 * on a first start — JSON on stdout, the key for people on stderr, at an address they can use.
 */
import { expect } from 'chai';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempDataDir } from '../helpers/server.js';
import { runCli, runCliHere, spawnDaemon } from '../helpers/child.js';
import { COMMANDS, ENVIRONMENT, EXIT_CODES } from '../../src/cli/helpText.js';

const VERSION = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

/** Splits an example the way a shell would (double quotes only; `$(…)` inside a word). */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|((?:\$\([^)]*\)|[^\s"])+)/g)].map((m) => m[1] ?? m[2]);
}

describe('household-organizer --help and <command> --help', function () {
  this.timeout(60_000);
  // The executable itself is run for --help, --version and the examples; what each command
  // says about itself and its usage errors is asked of the program in this process.

  it('--help lists every command, the common options, the environment variables and the exit codes', async () => {
    const r = await runCli(['--help']);
    expect(r.code).to.equal(0);
    expect(r.stderr).to.equal('');
    expect(r.stdout).to.match(
      new RegExp(`^household-organizer ${VERSION.replace(/\./g, '\\.')}: `),
    );
    for (const c of COMMANDS) expect(r.stdout).to.include(`  ${[c.name, ...c.args].join(' ')} `);
    for (const flag of ['--data-dir DIR', '--config FILE', '--json', '--help', '--version'])
      expect(r.stdout).to.include(flag);
    for (const name of [
      'HOUSEHOLD_CONFIG',
      'HOUSEHOLD_DATA_DIR',
      'HOUSEHOLD_HOST',
      'HOUSEHOLD_PORT',
      'HOUSEHOLD_PUBLIC_URL',
      'HOUSEHOLD_TRUSTED_PROXIES',
      'HOUSEHOLD_LOG_LEVEL',
      'HOUSEHOLD_LOG_FORMAT',
      'HOUSEHOLD_METRICS',
      'HOUSEHOLD_METRICS_TOKEN',
      'HOUSEHOLD_BACKUP_EVERY',
      'HOUSEHOLD_BACKUP_KEEP',
      'HOUSEHOLD_BACKUP_DIR',
      'HOUSEHOLD_NATS_SERVERS',
      'HOUSEHOLD_CLUSTER_SECRET',
    ]) {
      expect(r.stdout).to.include(`  ${name} `);
    }
    // Every variable src/config.ts reads is listed.
    const read = new Set(
      [
        ...readFileSync(new URL('../../../src/config.ts', import.meta.url), 'utf8').matchAll(
          /env\.(HOUSEHOLD_[A-Z_]+)/g,
        ),
      ].map((m) => m[1]),
    );
    for (const name of read)
      expect(
        ENVIRONMENT.map(([n]) => n),
        name,
      ).to.include(name);
    expect(ENVIRONMENT).to.have.length(18);
    for (const code of [0, 1, 2, 70, 78])
      expect(r.stdout).to.match(new RegExp(`\\n  ${code} +\\S`));
    expect(EXIT_CODES.map(([c]) => c)).to.deep.equal([0, 1, 2, 70, 78]);
    const [short, viaHelp] = await Promise.all([runCli(['-h']), runCli(['help'])]);
    expect(short.stdout).to.equal(r.stdout);
    expect(viaHelp.stdout).to.equal(r.stdout);
  });

  it('--version prints the package version and nothing else', async () => {
    const r = await runCli(['--version']);
    expect(r).to.deep.equal({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('without a command prints the overview on stderr and exits 2', async () => {
    const r = await runCliHere([]);
    expect(r.code).to.equal(2);
    expect(r.stdout).to.equal('');
    expect(r.stderr).to.include('Usage: household-organizer <command> [options]');
  });

  for (const c of COMMANDS) {
    it(`${c.name} --help shows its usage, what it does, its options and examples`, async () => {
      const r = await runCliHere([...c.name.split(' '), '--help']);
      expect(r.code, r.stderr).to.equal(0);
      const lines = r.stdout.split('\n');
      expect(lines[0]).to.equal(
        `Usage: household-organizer ${[c.name, ...c.args, ...c.options.map((o) => `[--${o.name}${o.value ? ` ${o.value}` : ''}]`)].join(' ')}`,
      );
      for (const d of c.details) expect(r.stdout).to.include(d);
      for (const o of c.options)
        expect(r.stdout).to.match(
          new RegExp(
            `\\n  --${o.name}${o.value ? ` ${o.value}` : ''} +${o.text.slice(0, 20).replace(/[().*+?[\]\\]/g, '\\$&')}`,
          ),
        );
      expect(r.stdout).to.include(
        'Options for every command: --data-dir DIR, --config FILE, --json',
      );
      expect(c.examples.length).to.be.greaterThan(0);
      for (const e of c.examples) expect(r.stdout).to.include(`\n  ${e}\n`);
      expect(r.stdout).to.match(
        /\nExit codes: 0 ok, 1 refused or not done, 2 usage, 70 internal error, 78 configuration or environment/,
      );
    });
  }

  it('help <command> and <command> -h say the same as <command> --help', async () => {
    const [long, viaHelp, short] = await Promise.all([
      runCliHere(['key', 'create', '--help']),
      runCliHere(['help', 'key', 'create']),
      runCliHere(['key', 'create', '-h']),
    ]);
    expect(long.stdout).to.match(/^Usage: household-organizer key create /);
    expect(viaHelp.stdout).to.equal(long.stdout);
    expect(short.stdout).to.equal(long.stdout);
  });

  it('serve --help names the environment variables too', async () => {
    const r = await runCliHere(['serve', '--help']);
    expect(r.stdout).to.include('Environment:\n  HOUSEHOLD_CONFIG');
    expect(r.stdout).to.include('HOUSEHOLD_PUBLIC_URL');
  });

  it('family --help and key --help list their commands', async () => {
    const family = await runCliHere(['family', '--help']);
    expect(family.code).to.equal(0);
    expect(family.stdout.split('\n')[0]).to.equal(
      'Usage: household-organizer family <create|update|list> …',
    );
    const key = await runCliHere(['key', '--help']);
    expect(key.stdout.split('\n')[0]).to.equal(
      'Usage: household-organizer key <create|list|revoke> …',
    );
    expect(key.stdout).to.include('  key revoke <keyId>  revoke a key at once');
  });

  it('every example in the help is a command line the program accepts', async () => {
    const dir = tempDataDir();
    try {
      expect((await runCli(['family', 'create', 'home', '--data-dir', dir])).code).to.equal(0);
      const examples = COMMANDS.filter((x) => x.name !== 'serve').flatMap((c) =>
        c.examples.filter((x) => x.startsWith('household-organizer ')),
      );
      const check = async (e: string) => {
        // Where an example names a file or folder, use one in the test's folder; `> file` is the shell's.
        const args = words(e)
          .slice(1)
          .filter((_w, i, all) => !all.slice(0, i + 1).includes('>'))
          .map((w) => w.replace(/\$\([^)]*\)/g, 'stamp'))
          .map((w) => (/^\/var\/|\.json$/.test(w) ? join(dir, w.replace(/\//g, '_')) : w));
        const r = await runCli(args.includes('--data-dir') ? args : [...args, '--data-dir', dir]);
        // 1 is a refusal the example's data explains (no such key, grant or person); 2 would be a usage error.
        expect(r.code, `${e}\n${r.stderr}`).to.be.oneOf(
          /key revoke|grant revoke|--person/.test(e) ? [1] : [0],
        );
      };
      // Two at a time (LMDB takes several processes on one store): one per core.
      const queue = [...examples];
      await Promise.all(
        [0, 1].map(async () => {
          for (let e = queue.shift(); e !== undefined; e = queue.shift()) await check(e);
        }),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses an option a command does not take, an extra argument and an unknown option, with that command's usage (exit 2)", async () => {
    const wrong = await runCliHere(['family', 'list', '--scopes', 'read']);
    expect(wrong.code).to.equal(2);
    expect(wrong.stderr).to.equal(
      "family list does not take --scopes\n\nUsage: household-organizer family list\nRun 'household-organizer family list --help' for its options and examples.\n",
    );
    const port = await runCliHere(['backup', '/tmp/x', '--port', '8080']);
    expect(port.code).to.equal(2);
    expect(port.stderr.split('\n')[0]).to.equal('backup does not take --port');
    const extra = await runCliHere(['key', 'list', 'home', 'smiths']);
    expect(extra.code).to.equal(2);
    expect(extra.stderr.split('\n')[0]).to.equal('unexpected argument "smiths" for key list');
    // `npm start --port 8081`: npm keeps --port (npm_config_port=true) and passes "8081" on.
    const npmStart = await runCliHere(['serve', '8081'], { npm_config_port: 'true' });
    expect(npmStart.code).to.equal(2);
    expect(npmStart.stderr.split('\n')[0]).to.equal(
      'unexpected argument "8081" for serve: npm kept --port for itself; write `npm start -- --port 8081`',
    );
    const unknown = await runCliHere(['key', 'create', 'home', '--scope', 'read']);
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr.split('\n').slice(0, 3)).to.deep.equal([
      'unknown option --scope',
      '',
      'Usage: household-organizer key create <slug> [--scopes LIST] [--person ID] [--name N]',
    ]);
    const group = await runCliHere(['key']);
    expect(group.code).to.equal(2);
    expect(group.stderr.split('\n')[0]).to.equal('key needs a command: create, list, revoke');
    const missing = await runCliHere(['export']);
    expect(missing.code).to.equal(2);
    expect(missing.stderr).to.equal(
      "export needs a family slug\n\nUsage: household-organizer export <slug> [--out FILE]\nRun 'household-organizer export --help' for its options and examples.\n",
    );
  });
});

describe('serve: what a first start prints', function () {
  this.timeout(60_000);

  it('keeps stdout JSON lines, prints the key for people on stderr, at the publicUrl other devices use', async () => {
    const dir = tempDataDir();
    // The first family takes the machine's zone (TZ here) and the banner says how to change it.
    const d = await spawnDaemon(dir, {
      HOUSEHOLD_PUBLIC_URL: 'http://household.test',
      TZ: 'America/Chicago',
    });
    try {
      expect(d.bootstrapKey).to.match(/^hk_/);
      const key = d.bootstrapKey!;
      expect(d.output()).to.include(
        '\nCreated the first family "home" in time zone America/Chicago. If the household lives in another zone:\n' +
          '    household-organizer family update home --timezone <Area/City>\n' +
          'Its admin API key is shown only this once; keep it somewhere safe:\n\n' +
          `    ${key}\n\n` +
          'From other devices: http://household.test\n' +
          `On this machine: ${d.url}\n` +
          `Try: curl -H 'x-api-key: ${key}' http://household.test/api/v1/families/home/changes\n` +
          'API reference in a browser (no key needed to read it): http://household.test/api/docs\n\n',
      );
      const res = await fetch(`${d.url}/api/v1/families/home`, { headers: { 'x-api-key': key } });
      expect(res.status).to.equal(200);
    } finally {
      d.proc.kill('SIGTERM');
      await d.exited;
      rmSync(dir, { recursive: true, force: true });
    }
    // Everything on stdout is a JSON log line, and none carries the key.
    const stdout = d.stdout().trim();
    const lines = stdout.split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const messages = lines.map((l) => l.msg);
    expect(messages).to.include.members([
      'created the first family and its admin key (printed on stderr)',
      'received SIGTERM, stopping',
      'stopped',
    ]);
    expect(messages.some((m) => String(m).startsWith('listening on 127.0.0.1:'))).to.equal(true);
    expect(stdout).to.not.include(d.bootstrapKey!);
    // Listening on 127.0.0.1 only, a localhost publicUrl would be right: no warning here.
    expect(lines.some((l) => l.level === 40)).to.equal(false);
  });
});
