/**
 * The layering the folders promise (docs/design.md, "Layers"), checked on the source itself
 * (parsed with the TypeScript compiler, so multi-line and type-only imports are read exactly):
 * - `src/domain` imports nothing outside `src/domain` but pure libraries, and no Node module
 *   that does I/O, keeps time or makes randomness;
 * - imports run only downward through the floors of FLOORS, type-only ones included;
 * - no door imports another door's internals (a door's `*.schema.ts` files are the wire shapes
 *   it publishes), and the door core imports no door;
 * - below the composition, no module takes the whole store (`Store`, `HouseholdStore`): each is
 *   handed the ports of store/ports.ts it uses, and its types say which, so the compiler checks
 *   what the store allow-lists of this test used to;
 * - `src/display` is the browser's (the family display's script, its own TypeScript project):
 *   it imports its own files, the shared words and formats of `src/locale`, and of the daemon
 *   only types (erased when compiled); nothing of the daemon imports it; `src/locale`, compiled
 *   by both projects, imports nothing but itself.
 */
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const src = join(root, 'src');

import { files, importsOf } from './helpers/sourceImports.js';

const CRYPTO = /^(node:)?crypto$/;

const rel = (p: string) => relative(root, p);

/** Libraries the domain may use: pure computation, no I/O of their own. */
const PURE_LIBRARIES = new Set([
  'temporal-polyfill',
  'croner',
  'ical-expander',
  'ical.js',
  'minisearch',
  'intl-messageformat',
  'superstruct',
]);
/** Node modules that do I/O, read clocks or make randomness. */
const IMPURE_NODE =
  /^(node:)?(fs|fs\/promises|net|http|https|http2|dns|child_process|crypto|os|worker_threads|timers|timers\/promises|process|dgram|tls|cluster)$/;

function domainViolations(srcDir: string): string[] {
  const domain = join(srcDir, 'domain');
  const bad: string[] = [];
  for (const f of files(domain)) {
    for (const i of importsOf(f)) {
      if (i.target) {
        if (!i.target.startsWith(domain + '/')) bad.push(`${rel(f)} imports ${rel(i.target)}`);
      } else if (
        IMPURE_NODE.test(i.spec) &&
        !(CRYPTO.test(i.spec) && i.names.length > 0 && i.names.every((n) => n === 'createHash'))
      ) {
        // Hashing is a pure function of its input; the rest of crypto is randomness.
        bad.push(`${rel(f)} imports ${i.spec}`);
      } else if (!i.spec.startsWith('node:') && !PURE_LIBRARIES.has(i.spec) && !i.typeOnly) {
        bad.push(
          `${rel(f)} imports the library ${i.spec} (add it to PURE_LIBRARIES only if it does no I/O)`,
        );
      }
    }
    const text = readFileSync(f, 'utf8');
    for (const [pattern, what] of [
      [/\bDate\.now\(/, 'Date.now()'],
      [/\bnew Date\(\)/, 'new Date()'],
      [/\bMath\.random\(/, 'Math.random()'],
      [/\bprocess\./, 'process'],
    ] as const) {
      if (pattern.test(text)) bad.push(`${rel(f)} uses ${what}`);
    }
  }
  return bad;
}

/**
 * The floors of the house, top to bottom: a file may import from its own floor and the floors
 * below, never from one above (type-only imports included: a type from above still tangles the
 * reading). The unit is a folder of src/ (a top-level file is its own unit).
 */
const FLOORS: readonly (readonly string[])[] = [
  // 8: composition: the daemon, the command line, their start-up pieces
  [
    'daemon',
    'server.ts',
    'cli',
    'bootstrap.ts',
    'housekeeping.ts',
    'listen.ts',
    'banner.ts',
    'storeHealth.ts',
  ],
  // 7: the topology seam and the cluster's implementation of it
  ['topology', 'cluster'],
  // 6: the doors
  ['http', 'caldav', 'oauth', 'mcp', 'public', 'stream', 'pages'],
  // 5: the door core
  ['door'],
  // 4: the outward half: following the log, leaving the machine, copies of the store; the
  //    daemon's figures
  ['feeds', 'notifications', 'webhooks', 'backup', 'metrics.ts'],
  // 3: the agenda's timer
  ['scheduler'],
  // 2: the family actors and registry; the outside services
  ['family', 'integrations'],
  // 1: the store
  ['store'],
  // 0: the pure domain and the basics every floor reads
  [
    'domain',
    'config.ts',
    'configCluster.ts',
    'configEnv.ts',
    'version.ts',
    'logger.ts',
    'logFormat.ts',
    'addresses.ts',
    'backupEvery.ts',
    'startup.ts',
    'types',
    'locale',
  ],
];

/** The browser's own place: no floor of the daemon's house (browserViolations). */
const BROWSER = 'display';
/** What the browser's script and the daemon both compile: pure, imports only itself. */
const SHARED = 'locale';

/** The doors: none imports another's internals (only its published `*.schema.ts` shapes). */
const DOORS = new Set(FLOORS[2]);

/** Who may hold the whole store (`Store`, `HouseholdStore`): the composition and the store. */
const WHOLE_STORE_ALLOWED = new Set([...FLOORS[0], ...FLOORS[1], 'store']);

function unitOf(srcDir: string, file: string): string {
  return relative(srcDir, file).split('/')[0];
}

function floorOf(unit: string): number {
  const i = FLOORS.findIndex((f) => f.includes(unit));
  return i === -1 ? -1 : FLOORS.length - 1 - i;
}

/** Every import that runs up a floor, or into a unit no floor names. */
function upwardViolations(srcDir: string): string[] {
  const bad: string[] = [];
  for (const f of files(srcDir)) {
    const from = unitOf(srcDir, f);
    if (from === BROWSER) continue;
    if (floorOf(from) === -1) bad.push(`${rel(f)} is in ${from}, which no floor names`);
    for (const i of importsOf(f)) {
      if (!i.target?.startsWith(srcDir + '/')) continue;
      const to = unitOf(srcDir, i.target);
      if (from !== to && floorOf(to) > floorOf(from))
        bad.push(`${rel(f)} imports ${rel(i.target)} (up from ${from} to ${to})`);
    }
  }
  return bad;
}

/** A door importing another door's internals, or the door core importing any door. */
function doorViolations(srcDir: string): string[] {
  const bad: string[] = [];
  for (const f of files(srcDir)) {
    const from = unitOf(srcDir, f);
    if (!DOORS.has(from) && from !== 'door') continue;
    for (const i of importsOf(f)) {
      if (!i.target?.startsWith(srcDir + '/')) continue;
      const to = unitOf(srcDir, i.target);
      if (!DOORS.has(to) || to === from) continue;
      if (from === 'door') bad.push(`the door core's ${rel(f)} imports the door ${rel(i.target)}`);
      else if (!i.target.endsWith('.schema.ts'))
        bad.push(`${rel(f)} imports ${rel(i.target)}, an internal of the ${to} door`);
    }
  }
  return bad;
}

/**
 * The browser's script importing a value of the daemon (or any package), the shared module
 * importing anything but itself, or the daemon importing the browser's script.
 */
function browserViolations(srcDir: string): string[] {
  const bad: string[] = [];
  for (const f of files(srcDir)) {
    const from = unitOf(srcDir, f);
    for (const i of importsOf(f)) {
      const to = i.target?.startsWith(srcDir + '/') ? unitOf(srcDir, i.target) : null;
      if (from === BROWSER) {
        if (!to) bad.push(`${rel(f)} imports ${i.spec}: the browser's script imports no package`);
        else if (to !== BROWSER && to !== SHARED && !i.typeOnly)
          bad.push(`${rel(f)} imports ${rel(i.target!)}: only its types may reach the browser`);
      } else if (from === SHARED) {
        if (to !== SHARED) bad.push(`${rel(f)} imports ${i.spec}: ${SHARED} imports only itself`);
      } else if (to === BROWSER) {
        bad.push(`${rel(f)} imports ${rel(i.target!)}, the browser's script`);
      }
    }
  }
  return bad;
}

/** A module below the composition that takes the whole store where its ports exist. */
function wholeStoreViolations(srcDir: string): string[] {
  const store = join(srcDir, 'store');
  const bad: string[] = [];
  for (const f of files(srcDir)) {
    if (WHOLE_STORE_ALLOWED.has(unitOf(srcDir, f))) continue;
    for (const i of importsOf(f)) {
      const whole =
        (i.target === join(store, 'store.ts') && i.names.some((n) => n === 'Store' || n === '*')) ||
        (i.target === join(store, 'ports.ts') && i.names.includes('HouseholdStore'));
      if (whole)
        bad.push(`${rel(f)} imports the whole store; take the ports it uses (store/ports.ts)`);
    }
  }
  return bad;
}

describe('layering of src/', () => {
  it('keeps src/domain pure: no imports from other layers, no I/O, clock or randomness', () => {
    expect(domainViolations(src)).to.deep.equal([]);
  });

  it('runs only downward: no import up a floor, type-only ones included', () => {
    expect(upwardViolations(src)).to.deep.equal([]);
  });

  it("keeps each door to its own: no door imports another's internals, the core imports no door", () => {
    expect(doorViolations(src)).to.deep.equal([]);
  });

  it("keeps the browser's script to its own files, the shared module and the daemon's types", () => {
    expect(browserViolations(src)).to.deep.equal([]);
  });

  it('hands every module the store ports it uses, never the whole store', () => {
    expect(wholeStoreViolations(src)).to.deep.equal([]);
  });

  it('reports each kind of violation (the check itself can fail)', () => {
    const fake = mkdtempSync(join(tmpdir(), 'layering-'));
    try {
      for (const d of ['domain/x', 'http/routes', 'public', 'store'])
        mkdirSync(join(fake, d), { recursive: true });
      writeFileSync(join(fake, 'store/store.ts'), 'export class Store {}\n');
      writeFileSync(
        join(fake, 'domain/x/a.ts'),
        "import { Store } from '../../store/store.js';\nimport { readFileSync } from 'node:fs';\nimport got from 'got';\nexport const t = Date.now();\n",
      );
      writeFileSync(
        join(fake, 'domain/x/ok.ts'),
        "import type { Store } from '../../store/store.js';\nimport { a } from './b.js';\nimport { createHash } from 'node:crypto';\n",
      );
      writeFileSync(
        join(fake, 'domain/x/rand.ts'),
        "import { createHash, randomBytes } from 'node:crypto';\n",
      );
      writeFileSync(
        join(fake, 'http/routes/r.ts'),
        "import { Store } from '../../store/store.js';\nimport type { Store as S } from '../../store/store.js';\n",
      );
      writeFileSync(join(fake, 'public/p.ts'), "export { Store } from '../store/store.js';\n");
      const d = domainViolations(fake);
      expect(d.some((v) => v.includes('a.ts imports') && v.includes('store/store.ts'))).to.equal(
        true,
      );
      expect(d.some((v) => v.endsWith('imports node:fs'))).to.equal(true);
      expect(d.some((v) => v.includes('the library got'))).to.equal(true);
      expect(d.some((v) => v.endsWith('uses Date.now()'))).to.equal(true);
      // The type-only import of ok.ts still leaves the domain: reported too; hashing is not.
      expect(d.filter((v) => v.includes('ok.ts'))).to.have.length(1);
      expect(d.filter((v) => v.includes('rand.ts'))).to.deep.equal([
        'src/domain/x/rand.ts imports node:crypto'.replace('src/', relative(root, fake) + '/'),
      ]);
      // A door and the core; the floors of a fake house like the real one.
      for (const dir of ['door', 'caldav', 'cluster', 'webhooks'])
        mkdirSync(join(fake, dir), { recursive: true });
      writeFileSync(join(fake, 'store/ports.ts'), 'export interface HouseholdStore {}\n');
      writeFileSync(join(fake, 'http/routes/x.schema.ts'), 'export const X = {};\n');
      writeFileSync(join(fake, 'caldav/door.ts'), 'export const caldav = 1;\n');
      writeFileSync(
        join(fake, 'door/core.ts'),
        "import type { X } from '../http/routes/x.schema.js';\nimport { caldav } from '../caldav/door.js';\n",
      );
      writeFileSync(
        join(fake, 'caldav/m.ts'),
        "import { X } from '../http/routes/x.schema.js';\nimport { a } from '../public/p.js';\n",
      );
      writeFileSync(
        join(fake, 'webhooks/w.ts'),
        "import type { C } from '../cluster/c.js';\nimport type { HouseholdStore } from '../store/ports.js';\n",
      );
      writeFileSync(join(fake, 'cluster/c.ts'), "import { Store } from '../store/store.js';\n");
      const up = upwardViolations(fake);
      // webhooks → cluster, the core → two doors, the domain → the store (twice).
      expect(up.filter((v) => v.includes('up from'))).to.have.length(5);
      expect(
        up.some((v) => v.includes('webhooks/w.ts imports') && v.includes('cluster/c.ts')),
      ).to.equal(true);
      expect(
        up.some((v) => v.includes('door/core.ts imports') && v.includes('up from door to caldav')),
      ).to.equal(true);
      expect(up.some((v) => v.includes('caldav/m.ts imports'))).to.equal(false);
      const doors = doorViolations(fake);
      expect(doors.filter((v) => v.startsWith("the door core's"))).to.have.length(2);
      expect(doors.filter((v) => v.includes('an internal of the public door'))).to.have.length(1);
      expect(
        doors.some((v) => v.includes('caldav/m.ts imports') && v.includes('x.schema')),
      ).to.equal(false);
      const whole = wholeStoreViolations(fake).map((v) =>
        v.replace(/^.*?\/(\w+\/[\w/]+\.ts)/, '$1'),
      );
      expect([...new Set(whole.map((v) => v.split(' ')[0]))].sort()).to.deep.equal([
        'domain/x/a.ts',
        'domain/x/ok.ts',
        'http/routes/r.ts',
        'public/p.ts',
        'webhooks/w.ts',
      ]);
      // The browser's place and the shared module.
      for (const dir of ['display', 'locale']) mkdirSync(join(fake, dir), { recursive: true });
      writeFileSync(join(fake, 'locale/words.ts'), "import { x } from '../domain/x/ok.js';\n");
      writeFileSync(
        join(fake, 'display/main.ts'),
        "import type { S } from '../store/store.js';\nimport { w } from '../locale/words.js';\nimport { Store } from '../store/store.js';\nimport got from 'got';\n",
      );
      writeFileSync(join(fake, 'caldav/b.ts'), "import { m } from '../display/main.js';\n");
      const browser = browserViolations(fake).map((v) =>
        v.split(relative(root, fake) + '/').join(''),
      );
      expect(
        browser.map((v) => v.replace(/^(\S+ imports [^\s,:]+).*$/, '$1')).sort(),
      ).to.deep.equal([
        'caldav/b.ts imports display/main.ts',
        'display/main.ts imports got',
        'display/main.ts imports store/store.ts',
        'locale/words.ts imports ../domain/x/ok.js',
      ]);
      expect(upwardViolations(fake).some((v) => v.includes('display/'))).to.equal(false);
    } finally {
      rmSync(fake, { recursive: true, force: true });
    }
  });
});
