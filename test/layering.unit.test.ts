/**
 * The layering the folders promise, checked on the source itself (parsed with the TypeScript
 * compiler, so multi-line and type-only imports are read exactly):
 * - `src/domain` imports nothing outside `src/domain` but pure libraries, and no Node module
 *   that does I/O, keeps time or makes randomness;
 * - `src/http`, `src/public` and `src/mcp` reach the store only through the few places that
 *   must (key checks, idempotency answers, mapping a refused write, the system routes);
 *   everything else goes through the family registry and its actors. Type-only imports are
 *   free: they vanish at run time.
 * - no file of `src/` calls `services.store` but those places and where the app hands the
 *   store to the key check and the idempotency middleware (the app, the MCP endpoint's key
 *   check).
 */
import { expect } from 'chai';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const src = join(root, 'src');

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, out);
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

interface Import {
  spec: string;
  typeOnly: boolean;
  target: string | null;
  names: string[];
}

const CRYPTO = /^(node:)?crypto$/;

/** Every import and re-export of a file; `target` is the resolved path of a relative one. */
function importsOf(file: string): Import[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const out: Import[] = [];
  for (const st of sf.statements) {
    let spec: string | undefined;
    let typeOnly = false;
    let names: string[] = [];
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      spec = st.moduleSpecifier.text;
      const clause = st.importClause;
      if (clause?.namedBindings && ts.isNamedImports(clause.namedBindings))
        names = clause.namedBindings.elements.map((e) => (e.propertyName ?? e.name).text);
      if (clause?.name || (clause?.namedBindings && !ts.isNamedImports(clause.namedBindings)))
        names.push('*');
      typeOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            !!clause.namedBindings &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
    } else if (
      ts.isExportDeclaration(st) &&
      st.moduleSpecifier &&
      ts.isStringLiteral(st.moduleSpecifier)
    ) {
      spec = st.moduleSpecifier.text;
      typeOnly = st.isTypeOnly;
    }
    if (spec === undefined) continue;
    const target = spec.startsWith('.')
      ? resolve(dirname(file), spec).replace(/\.js$/, '.ts')
      : null;
    out.push({ spec, typeOnly, target, names });
  }
  return out;
}

const rel = (p: string) => relative(root, p);

/** Libraries the domain may use: pure computation, no I/O of their own. */
const PURE_LIBRARIES = new Set([
  'temporal-polyfill',
  'croner',
  'ical-expander',
  'ical.js',
  'minisearch',
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

/** Places in src/http and src/public that may import the store for real (not only its types). */
const STORE_ALLOWED = [
  'http/middleware/auth.ts',
  'http/middleware/idempotency.ts',
  'http/middleware/errors.ts',
  'http/routes/system.ts',
];

/** Files that may use `services.store`: the places above, and those that wire the key check. */
const SERVICES_STORE_ALLOWED = [
  ...STORE_ALLOWED,
  'http/app.ts',
  'mcp/endpoint.ts',
  // The CalDAV door checks keys like the others, and sync-collection reads the change log
  // (read-only, as the changes feed does) to say what changed since a token.
  'caldav/door.ts',
  'caldav/reports.ts',
  // A cluster node's front door finds a request's family (slug, key) in the replicated directory
  // to pass it to the owner, before any route runs.
  'cluster/door.ts',
];

function servicesStoreViolations(srcDir: string): string[] {
  const allowed = new Set(SERVICES_STORE_ALLOWED.map((p) => join(srcDir, p)));
  const bad: string[] = [];
  for (const f of files(srcDir)) {
    if (allowed.has(f)) continue;
    const lines = readFileSync(f, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (
        /\bservices\s*\??\.\s*store\b|\{[^}]*\bstore\b[^}]*\}\s*=\s*(\w+\.)?services\b/.test(line)
      ) {
        bad.push(`${rel(f)}:${i + 1} uses services.store`);
      }
    });
  }
  return bad;
}

function storeViolations(srcDir: string): string[] {
  const store = join(srcDir, 'store');
  const allowed = new Set(STORE_ALLOWED.map((p) => join(srcDir, p)));
  const bad: string[] = [];
  for (const dir of ['http', 'public', 'mcp', 'caldav']) {
    if (!existsSync(join(srcDir, dir))) continue;
    for (const f of files(join(srcDir, dir))) {
      for (const i of importsOf(f)) {
        if (i.target?.startsWith(store + '/') && !i.typeOnly && !allowed.has(f))
          bad.push(`${rel(f)} imports ${rel(i.target)}`);
      }
    }
  }
  return bad;
}

describe('layering of src/', () => {
  it('keeps src/domain pure: no imports from other layers, no I/O, clock or randomness', () => {
    expect(domainViolations(src)).to.deep.equal([]);
  });

  it('lets src/http, src/public and src/mcp reach the store only where they must', () => {
    expect(storeViolations(src)).to.deep.equal([]);
  });

  it('keeps services.store to auth, idempotency, errors and the system routes', () => {
    expect(servicesStoreViolations(src)).to.deep.equal([]);
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
      writeFileSync(
        join(fake, 'public/q.ts'),
        "export const f = (s: any) => s.services.store.lookupIndex('x', 'y');\n",
      );
      writeFileSync(
        join(fake, 'http/routes/d.ts'),
        'export const g = ({ services }: any) => { const { store } = services; return store; };\n',
      );
      writeFileSync(
        join(fake, 'http/routes/system.ts'),
        'export const h = (services: any) => services.store.readLog();\n',
      );
      expect(
        servicesStoreViolations(fake).map((v) => v.replace(/^.*\/(public|http)\//, '$1/')),
      ).to.deep.equal([
        'http/routes/d.ts:1 uses services.store',
        'public/q.ts:1 uses services.store',
      ]);
      const h = storeViolations(fake);
      expect(h).to.have.length(2);
      expect(h.some((v) => v.includes('http/routes/r.ts'))).to.equal(true);
      expect(h.some((v) => v.includes('public/p.ts'))).to.equal(true);
    } finally {
      rmSync(fake, { recursive: true, force: true });
    }
  });
});
