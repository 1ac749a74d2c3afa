/**
 * The Dockerfile, .dockerignore and compose.yaml read statically (no container engine here):
 * a supported Node LTS base for every stage, production dependencies only in the image, a
 * non-root user, the private /data volume, the health check, OCI labels that match
 * package.json, sources the build can find, no household data in the build context, the
 * command line on PATH, and a compose example with the volume, HOUSEHOLD_PUBLIC_URL, scheduled
 * backups and the backup command.
 */
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (name: string) => readFileSync(resolve(root, name), 'utf8');
const pkg = JSON.parse(read('package.json')) as {
  version: string;
  license: string;
  engines: { node: string };
};

interface Instruction {
  op: string;
  args: string;
  stage: number;
}

/** Dockerfile instructions in order, continuation lines joined, comments dropped; stage -1 before the first FROM. */
function instructions(text: string): Instruction[] {
  const joined = text
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n')
    .replace(/\\\n/g, ' ');
  const out: Instruction[] = [];
  let stage = -1;
  for (const line of joined.split('\n')) {
    const m = /^\s*([A-Z]+)\s+(.*?)\s*$/.exec(line);
    if (!m) continue;
    if (m[1] === 'FROM') stage++;
    out.push({ op: m[1], args: m[2].replace(/\s+/g, ' '), stage });
  }
  return out;
}

describe('Dockerfile, .dockerignore and compose.yaml', () => {
  const all = instructions(read('Dockerfile'));
  const froms = all.filter((i) => i.op === 'FROM');
  const last = froms.length - 1;
  const runtime = all.filter((i) => i.stage === last);

  it("builds every stage on one Node LTS image of line 24 or later (Node 20 is end of life), Debian slim for LMDB's glibc binary", () => {
    const arg = all.find(
      (i) => i.op === 'ARG' && i.stage === -1 && i.args.startsWith('NODE_IMAGE='),
    );
    expect(arg, 'ARG NODE_IMAGE before the first FROM').to.not.equal(undefined);
    const m = /^NODE_IMAGE=node:(\d+)-(trixie|bookworm)-slim$/.exec(arg!.args);
    expect(m, arg!.args).to.not.equal(null);
    expect(Number(m![1])).to.be.at.least(24);
    expect(froms.map((f) => f.args)).to.deep.equal([
      '${NODE_IMAGE} AS build',
      '${NODE_IMAGE} AS deps',
      '${NODE_IMAGE} AS runtime',
    ]);
    // The oldest line it supports (its dependencies want 22.12), and the release CI tests on:
    // the image's line, pinned in .node-version (.ci/run fetches it).
    expect(pkg.engines.node).to.equal('>=22.12.0');
    const tested = read('.node-version').trim();
    expect(tested).to.match(/^\d+\.\d+\.\d+$/);
    expect(tested.split('.')[0]).to.equal(m![1]);
    expect(read('.ci/run')).to.include('.node-version');
  });

  it('runs no install script of any dependency, in the image or on a machine, and says so for each one that has one', () => {
    const npmrc = read('.npmrc')
      .split('\n')
      .filter((l) => !/^\s*#/.test(l) && l.trim());
    expect(npmrc).to.deep.equal(['ignore-scripts=true']);
    // Both installs in the image read it.
    const installs = all.filter((i) => i.op === 'COPY' && i.args.includes('package-lock.json'));
    expect(installs.length).to.equal(2);
    for (const i of installs) expect(i.args.split(' ')).to.include('.npmrc');
    // Every dependency in the lockfile that has an install script is decided in allowScripts.
    const lock = JSON.parse(read('package-lock.json')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const scripted = Object.entries(lock.packages)
      .filter(([, p]) => p.hasInstallScript)
      .map(([path]) => path.replace(/^.*node_modules\//, ''));
    const decided = (JSON.parse(read('package.json')) as { allowScripts: Record<string, boolean> })
      .allowScripts;
    expect(Object.keys(decided).sort()).to.deep.equal([...new Set(scripted)].sort());
    expect(Object.values(decided).every((allowed) => allowed === false)).to.equal(true);
  });

  it('tells the start banner it runs in the image (HOUSEHOLD_IMAGE), so it names the published port', () => {
    const env = runtime
      .filter((i) => i.op === 'ENV')
      .map((i) => i.args)
      .join(' ');
    expect(env).to.match(/(^| )HOUSEHOLD_IMAGE=1( |$)/);
  });

  it('ships compiled code and production dependencies only', () => {
    const deps = all
      .filter((i) => i.stage === 1 && i.op === 'RUN')
      .map((i) => i.args)
      .join(' ');
    expect(deps).to.include('npm ci --omit=dev');
    const copies = runtime.filter((i) => i.op === 'COPY').map((i) => i.args);
    expect(copies).to.include('--from=deps /app/node_modules ./node_modules');
    expect(copies).to.include('--from=build /app/dist/src ./dist/src');
    expect(copies.some((c) => c.includes('--from=build /app/node_modules'))).to.equal(false);
    const build = all
      .filter((i) => i.stage === 0 && i.op === 'RUN')
      .map((i) => i.args)
      .join(' ');
    expect(build).to.include('rm -rf dist/test dist/bench');
  });

  it('copies only sources that exist and that .dockerignore lets through', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    const sources = all
      .filter((i) => i.op === 'COPY' && !i.args.startsWith('--from'))
      .flatMap((i) => i.args.split(' ').slice(0, -1));
    expect(sources).to.include.members([
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'src',
      'config',
      'bin',
    ]);
    for (const s of sources) {
      expect(existsSync(resolve(root, s)), s).to.equal(true);
      expect(ignored, s).to.not.include(s);
    }
  });

  it('keeps household data and build output out of the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    expect(ignored).to.include.members([
      'node_modules',
      'dist',
      'data',
      'backups',
      '*.mdb',
      '.git',
      '.env',
    ]);
  });

  it('runs as the unprivileged node user with /data a private volume', () => {
    const users = runtime.filter((i) => i.op === 'USER');
    expect(users.map((u) => u.args)).to.deep.equal(['node']);
    const userAt = runtime.indexOf(users[0]);
    const prepare = runtime.filter((i) => i.op === 'RUN');
    expect(prepare).to.have.length(1);
    expect(runtime.indexOf(prepare[0])).to.be.below(userAt);
    expect(prepare[0].args).to.include('chown node:node /data').and.include('chmod 0700 /data');
    // The command line on PATH for `docker exec … household-organizer …`, as root-owned as the rest.
    expect(prepare[0].args).to.include(
      'ln -s /app/bin/household-organizer /usr/local/bin/household-organizer',
    );
    expect(prepare[0].args).to.include('chmod 0755 bin/household-organizer');
    expect(runtime.find((i) => i.op === 'VOLUME')?.args).to.equal('["/data"]');
    expect(runtime.find((i) => i.op === 'ENV')?.args).to.include('HOUSEHOLD_DATA_DIR=/data');
    expect(runtime.indexOf(runtime.find((i) => i.op === 'ENTRYPOINT')!)).to.be.above(userAt);
  });

  it('starts the daemon as PID 1 in exec form, checks /healthz and stops on SIGTERM', () => {
    expect(runtime.find((i) => i.op === 'ENTRYPOINT')?.args).to.equal(
      '["node", "/app/bin/household-organizer"]',
    );
    expect(runtime.find((i) => i.op === 'CMD')?.args).to.equal('["serve"]');
    expect(runtime.find((i) => i.op === 'STOPSIGNAL')?.args).to.equal('SIGTERM');
    const health = runtime.find((i) => i.op === 'HEALTHCHECK')?.args ?? '';
    expect(health).to.match(
      /^--interval=\d+s --timeout=\d+s --start-period=\d+s --retries=\d+ CMD node -e /,
    );
    expect(health).to.include("'/healthz'");
    expect(runtime.find((i) => i.op === 'EXPOSE')?.args).to.equal('8080');
    expect(runtime.find((i) => i.op === 'ENV')?.args)
      .to.include('HOUSEHOLD_PORT=8080')
      .and.include('HOUSEHOLD_HOST=0.0.0.0');
  });

  it('labels the image with the OCI annotations, version and licence as package.json says', () => {
    const labels = new Map<string, string>();
    for (const l of runtime.filter((i) => i.op === 'LABEL')) {
      for (const m of l.args.matchAll(/([a-z.]+)="([^"]*)"/g)) labels.set(m[1], m[2]);
    }
    for (const k of [
      'title',
      'description',
      'version',
      'revision',
      'created',
      'licenses',
      'base.name',
    ]) {
      expect(labels.get(`org.opencontainers.image.${k}`), k)
        .to.be.a('string')
        .and.not.equal('');
    }
    expect(labels.get('org.opencontainers.image.licenses')).to.equal(pkg.license);
    expect(labels.get('org.opencontainers.image.version')).to.equal('${VERSION}');
    const version = runtime.find((i) => i.op === 'ARG' && i.args.startsWith('VERSION='));
    expect(version?.args).to.equal(`VERSION=${pkg.version}`);
    // The base image's ARG is re-declared in the stage, or the label would be empty.
    expect(runtime.some((i) => i.op === 'ARG' && i.args === 'NODE_IMAGE')).to.equal(true);
  });

  it('has a compose example with the volume, HOUSEHOLD_PUBLIC_URL, a graceful stop, scheduled backups and the backup command', () => {
    const text = read('compose.yaml');
    const doc = parseYaml(text) as {
      services: Record<
        string,
        {
          build?: string;
          image?: string;
          ports?: string[];
          environment?: Record<string, string>;
          volumes?: string[];
          stop_grace_period?: string;
        }
      >;
      volumes: Record<string, unknown>;
    };
    const h = doc.services.household;
    expect(h.build).to.equal('.');
    expect(h.ports).to.deep.equal(['8080:8080']);
    expect(h.volumes).to.include.members(['household-data:/data', './backups:/backups']);
    expect(doc.volumes).to.have.property('household-data');
    // Optional (links follow each request's address without it), passed through from .env.
    expect(h.environment?.HOUSEHOLD_PUBLIC_URL).to.equal('${HOUSEHOLD_PUBLIC_URL:-}');
    expect(h.environment?.HOUSEHOLD_BACKUP_DIR).to.equal('/backups');
    expect(h.environment?.HOUSEHOLD_BACKUP_EVERY).to.match(/^\$\{HOUSEHOLD_BACKUP_EVERY:-.+\}$/);
    expect(Number(/^(\d+)s$/.exec(h.stop_grace_period ?? '')?.[1])).to.be.greaterThan(10);
    // The backup runs inside the serving container (LMDB tells processes apart by PID).
    expect(text).to.include('docker compose exec household household-organizer backup /backups/');
  });

  it('runs the cluster on a pinned NATS release that syncs every write before acknowledging it', () => {
    const doc = parseYaml(read('compose.cluster.yaml'), { merge: true }) as {
      services: Record<string, { image?: string; command?: string[]; volumes?: string[] }>;
    };
    const nats = Object.entries(doc.services).filter(([name]) => name.startsWith('nats-'));
    expect(nats.length).to.equal(3);
    for (const [name, s] of nats) {
      // A pinned patch release, past the stream losses fixed in 2.10.23.
      const v = /^nats:(\d+)\.(\d+)\.(\d+)-alpine$/.exec(s.image ?? '');
      expect(v, `${name}: ${s.image}`).to.not.equal(null);
      expect(Number(v![1]) * 1e6 + Number(v![2]) * 1e3 + Number(v![3])).to.be.at.least(2_010_023);
      expect(s.command?.slice(0, 2), name).to.deep.equal(['-c', '/etc/nats/household.conf']);
      expect(s.volumes, name).to.include('./config/nats.conf:/etc/nats/household.conf:ro');
    }
    const conf = read('config/nats.conf').replace(/#.*$/gm, '');
    expect(conf).to.match(/jetstream\s*\{[^}]*sync_interval:\s*always[^}]*\}/);
    expect(conf).to.match(/store_dir:\s*\/data/);
  });
});
