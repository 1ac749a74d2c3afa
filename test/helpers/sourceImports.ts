/**
 * The imports of the source files (parsed with the TypeScript compiler, so multi-line and
 * type-only imports are read exactly), for the layering test.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

export function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, out);
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

export interface Import {
  spec: string;
  typeOnly: boolean;
  target: string | null;
  names: string[];
}

/** Every import and re-export of a file; `target` is the resolved path of a relative one. */
export function importsOf(file: string): Import[] {
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
      const clause = st.exportClause;
      names =
        clause && ts.isNamedExports(clause)
          ? clause.elements.map((e) => (e.propertyName ?? e.name).text)
          : ['*'];
    }
    if (spec === undefined) continue;
    const target = spec.startsWith('.')
      ? resolve(dirname(file), spec).replace(/\.js$/, '.ts')
      : null;
    out.push({ spec, typeOnly, target, names });
  }
  return out;
}
