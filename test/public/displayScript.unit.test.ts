/**
 * The family display's page runs on the browsers old wall tablets keep (Safari 12, Chrome 80)
 * without a build step, so its script is checked as it is shipped: it parses as ES2017 (no
 * `?.`, `??`, object spread or optional catch binding), names no global it does not have, and
 * uses none of the newer APIs those browsers lack; its style avoids what they do not read.
 */
import { expect } from 'chai';
import { Linter } from 'eslint';
import { DISPLAY_CSS, DISPLAY_JS } from '../../src/public/displayClient.js';

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
];

describe('the family display page as shipped', () => {
  it('is ES2017 with known globals and none of the APIs old tablets lack', () => {
    const messages = new Linter().verify(DISPLAY_JS, [
      {
        languageOptions: {
          ecmaVersion: 2017,
          sourceType: 'script',
          globals: Object.fromEntries(BROWSER_GLOBALS.map((g) => [g, 'readonly'])),
        },
        rules: {
          'no-undef': 'error',
          'no-unused-vars': ['error', { caughtErrors: 'none' }],
          'no-restricted-globals': ['error', 'globalThis', 'structuredClone', 'queueMicrotask'],
          'no-restricted-properties': [
            'error',
            ...NEWER.map(([property, instead]) => ({ property, message: `use ${instead}` })),
          ],
        },
      },
    ]);
    expect(messages.map((m) => `${m.line}:${m.column} ${m.message}`)).to.deep.equal([]);
  });

  it('would refuse newer syntax (the check itself works)', () => {
    const messages = new Linter().verify('var a = {}; var b = a?.b ?? { ...a };', [
      { languageOptions: { ecmaVersion: 2017, sourceType: 'script' } },
    ]);
    expect(messages[0].fatal).to.equal(true);
  });

  it('styles without clamp(), flex gap, inset or :focus-visible', () => {
    expect(DISPLAY_CSS).to.not.match(/clamp\(|(^|[;{])gap:|inset:|:focus-visible/);
  });
});
