/**
 * No import circle in src/, counting type-only imports too: a circle of types still tangles the
 * reading (a file cannot be understood without the ones that import it back), and one of values
 * makes the load order matter. Every `import … from`, `export … from` and bare `import '…'` counts,
 * over several lines too; circles are found as strongly connected components.
 */
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, out);
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

// A statement's start at a line's start, anything but quotes and semicolons, then its source.
const IMPORT = new RegExp(
  String.raw`^[ \t]*(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]` +
    String.raw`|^[ \t]*import\s*['"]([^'"]+)['"]`,
  'gm',
);

/** The files under src/ a file imports or re-exports from (type-only ones included). */
function importsOf(file: string): string[] {
  const out: string[] = [];
  for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    const spec = m[1] ?? m[2];
    if (!spec.startsWith('.')) continue;
    const base = resolve(dirname(file), spec).replace(/\.js$/, '');
    const target = [`${base}.ts`, join(base, 'index.ts')].find((c) => existsSync(c));
    if (target) out.push(target);
  }
  return out;
}

/** The circles of a graph: its strongly connected components of more than one file (Tarjan). */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const c: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      c.push(w);
    } while (w !== v);
    if (c.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(c.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('imports', () => {
  it('reads every form of import', () => {
    const dir = join(root, 'src/domain/shared');
    const text = readFileSync(join(dir, 'state.ts'), 'utf8');
    expect(text, 'a type-only import to read').to.match(/^import type \{/m);
    expect(importsOf(join(dir, 'state.ts'))).to.include(join(dir, 'events.ts'));
    const text2 = `import {\n  a,\n  type B,\n} from './x.js';\nexport * from "./y.js";\nimport './z.js';`;
    const multi = [...text2.matchAll(IMPORT)];
    expect(multi.map((m) => m[1] ?? m[2])).to.deep.equal(['./x.js', './y.js', './z.js']);
  });

  it('finds a circle, also one made of type-only imports, and only circles', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
      ['e', ['e']],
    ]);
    expect(circles(g)).to.deep.equal([['a', 'b', 'c'], ['e']]);
    expect(
      circles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).to.deep.equal([]);
  });

  it('src/ has no import circle, type-only imports included', () => {
    const all = files(join(root, 'src'));
    const graph = new Map(all.map((f) => [f, importsOf(f)]));
    expect(graph.get(join(root, 'src/server.ts'))!.length, 'imports are read').to.be.greaterThan(5);
    const found = circles(graph).map((c) => c.map((f) => relative(root, f)).join(' → '));
    expect(found).to.deep.equal([]);
  });
});
