/**
 * The family display's script as it is shipped: the ES2017 modules src/display/ compiles to
 * (dist/browser/) parse as ES2017 (no `?.`, `??`, object spread or optional catch binding: the
 * browsers of old wall tablets, Safari 12 and Chrome 80, would refuse the whole module), name
 * no global they do not have, and use none of the newer APIs those browsers lack; the browser's
 * program never sees Node's types; its source writes no English a person reads (every word comes
 * from the page's catalog, src/locale/displayMessages.ts); and the style avoids what old
 * browsers do not read.
 */
import { expect } from 'chai';
import { Linter } from 'eslint';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { DISPLAY_CSS } from '../../src/public/displayClient.js';
import { CATALOGS } from '../../src/domain/i18n/catalogs/index.js';

const DISPLAY_MESSAGES_EN = CATALOGS.en.display;

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const BROWSER_OUT = join(root, 'dist/browser');
const BROWSER_SRC = join(root, 'src/display');

function files(dir: string, ext: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, ext, out);
    else if (name.endsWith(ext)) out.push(p);
  }
  return out;
}

const BROWSER_GLOBALS = [
  'window',
  'document',
  'location',
  'localStorage',
  'navigator',
  'fetch',
  'EventSource',
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'Intl',
  'HTMLInputElement',
];

/** Newer than Safari 12 or Chrome 80 (or both), with what to use instead. */
const NEWER = [
  ['replaceChildren', 'removeChild in a loop'],
  ['randomUUID', 'crypto.getRandomValues'],
  ['flat', 'concat'],
  ['flatMap', 'map and concat'],
  ['fromEntries', 'a loop'],
  ['at', 'an index'],
  ['replaceAll', 'replace with /g'],
  ['matchAll', 'exec in a loop'],
  ['allSettled', 'then on each'],
  ['hasOwn', 'Object.prototype.hasOwnProperty.call'],
  ['RelativeTimeFormat', 'a message per case'],
  ['ListFormat', 'the catalog’s listSeparator'],
  ['PluralRules', 'a message per case'],
];

function es2017Problems(code: string): string[] {
  const messages = new Linter().verify(code, [
    {
      languageOptions: {
        ecmaVersion: 2017,
        sourceType: 'module',
        globals: Object.fromEntries(BROWSER_GLOBALS.map((g) => [g, 'readonly'])),
      },
      rules: {
        'no-undef': 'error',
        'no-restricted-globals': ['error', 'globalThis', 'structuredClone', 'queueMicrotask'],
        'no-restricted-properties': [
          'error',
          ...NEWER.map(([property, instead]) => ({ property, message: `use ${instead}` })),
        ],
      },
    },
  ]);
  return messages.map((m) => `${m.line}:${m.column} ${m.message}`);
}

/**
 * A string that reads as words to a person: capitalised, several words, not ASCII, or a word
 * of the catalog. A heuristic, checked below on what it must find; the browser tests then see
 * the page drawn from the catalog.
 */
const CATALOG = Object.values(DISPLAY_MESSAGES_EN).map((m) => m.replace(/\{\w+\}/g, '').trim());
function looksLikeWords(s: string): boolean {
  // The name of a message (`t('nothingMore')`) is not shown.
  if (Object.hasOwn(DISPLAY_MESSAGES_EN, s)) return false;
  // Nor is a language tag (`en-GB`).
  if (/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})+$/.test(s)) return false;
  if (!/[A-Za-z]{2}/.test(s) && !/[^ -~\s]/.test(s)) return false;
  if (/[^ -~\s]/.test(s) || /[A-Z][a-z]/.test(s) || /\b[a-z]+ [a-z]+\b/i.test(s)) return true;
  if (/\b[A-Z]{2,}\b/.test(s) && !/^(POST|UTC)$/.test(s)) return true;
  // A lower-case word of the catalog ("until").
  return CATALOG.some((m) => m.length > 1 && s.trim() === m);
}

/** The class and tag arguments of the page's element helpers (dom.ts) are not shown. */
function isMarkup(node: ts.Node): boolean {
  const call = node.parent;
  if (!ts.isCallExpression(call) || !ts.isIdentifier(call.expression)) return false;
  const i = call.arguments.indexOf(node as ts.Expression);
  return (call.expression.text === 'el' && i < 2) || (call.expression.text === 'button' && i < 2);
}

/** Every string written in the source that a person could read on the screen. */
function wordsIn(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isTypeNode(node)) return;
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      if (!isMarkup(node) && looksLikeWords(node.text)) {
        const { line } = sf.getLineAndCharacterOfPosition(node.getStart());
        out.push(`${relative(root, file)}:${line + 1} ${JSON.stringify(node.text)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

describe('the family display script as shipped', () => {
  it('is built: ES2017 modules with known globals and none of the APIs old tablets lack', () => {
    const built = files(BROWSER_OUT, '.js');
    expect(built.map((f) => relative(BROWSER_OUT, f))).to.include.members([
      'display/main.js',
      'locale/displayMessages.js',
      'locale/displayFormat.js',
    ]);
    for (const f of built)
      expect(es2017Problems(readFileSync(f, 'utf8')), relative(root, f)).to.deep.equal([]);
  });

  it('would refuse newer syntax and newer APIs (the check itself works)', () => {
    for (const code of [
      'var a = {}; var b = a?.b;',
      'var a = {}; var b = a ?? 1;',
      'var a = {}; var b = { ...a };',
      'try {} catch { }',
    ])
      expect(es2017Problems(code), code).to.have.length(1);
    expect(
      es2017Problems('[1].flat(); document.x(); new Intl.RelativeTimeFormat()'),
    ).to.have.length(2);
    expect(es2017Problems('process.exit()')[0]).to.match(/'process' is not defined/);
  });

  it("compiles without Node's types", () => {
    const config = ts.getParsedCommandLineOfConfigFile(
      join(BROWSER_SRC, 'tsconfig.json'),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
    )!;
    expect(config.options.types).to.deep.equal([]);
    expect(config.options.lib).to.deep.equal(['lib.es2017.d.ts', 'lib.dom.d.ts']);
    expect(config.options.target).to.equal(ts.ScriptTarget.ES2017);
    const program = ts.createProgram({
      rootNames: config.fileNames,
      options: config.options,
      projectReferences: config.projectReferences,
    });
    const seen = program.getSourceFiles().map((f) => f.fileName);
    expect(seen.filter((f) => f.includes('@types/node'))).to.deep.equal([]);
    expect(seen.some((f) => f.endsWith('src/display/main.ts'))).to.equal(true);
  });

  it('writes no English a person reads: every word comes from the catalog the page sends', () => {
    // The script and the formats it shares with the daemon (the catalog itself is the words).
    const sources = [...files(BROWSER_SRC, '.ts'), join(root, 'src/locale/displayFormat.ts')];
    const found = sources.flatMap((f) => wordsIn(f, readFileSync(f, 'utf8')));
    expect(found).to.deep.equal([]);
    // The check finds what it should, and leaves markup alone.
    const sample = [
      "el('h2', null, 'Chores');",
      "s.textContent = 'Offline since ' + t;",
      "b.textContent = '✓ ' + name;",
      "b.setAttribute('aria-label', `Who is going to ${x}`);",
      "const a = 'until ' + day; const key = 'today';",
      "const b = 'OK';",
      "el('span', 'leave meta', x); fetch(p, { method: 'POST', headers: { 'content-type': 'application/json' } });",
    ].join('\n');
    expect(wordsIn('sample.ts', sample).map((w) => w.replace(/^.*:(\d+) /, '$1 '))).to.deep.equal([
      '1 "Chores"',
      '2 "Offline since "',
      '3 "✓ "',
      '4 "Who is going to "',
      '5 "until "',
      '6 "OK"',
    ]);
  });

  it('has a use for every message of the catalog', () => {
    const code = [
      ...files(BROWSER_SRC, '.ts'),
      join(root, 'src/public/displayPage.ts'),
      join(root, 'src/domain/displays/view.ts'),
    ]
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const unused = Object.keys(DISPLAY_MESSAGES_EN).filter(
      (k) => !code.includes(`'${k}'`) && !code.includes(`m.${k}`),
    );
    expect(unused).to.deep.equal([]);
  });

  it('styles without clamp(), flex gap, inset or :focus-visible', () => {
    expect(DISPLAY_CSS).to.not.match(/clamp\(|(^|[;{])gap:|inset:|:focus-visible/);
  });
});
