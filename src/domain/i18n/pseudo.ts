/**
 * The pseudo-locale's text (docs/i18n.md): every ASCII letter accented, the message 40 % longer
 * and in brackets, so a test can tell a word that came through a catalog (`[Ťôďàý ··]`) from one
 * typed into the code (`Today`). Placeholders, plural and select keep their syntax: only the
 * literal text of the English message's tree is changed.
 */

const LOWER = 'àƀçďéƒĝĥîĵķļɱñôþǫŕšţûṽŵẋýž';
const UPPER = 'ÀƁÇĎÉƑĜĤÎĴĶĻṀÑÔÞǪŔŠŤÛṼŴẊÝŽ';
const LOWER_CHARS = [...LOWER];
const UPPER_CHARS = [...UPPER];

/** Every ASCII letter of `text` accented; anything else kept. */
export function accent(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    if (c >= 97 && c <= 122) out += LOWER_CHARS[c - 97];
    else if (c >= 65 && c <= 90) out += UPPER_CHARS[c - 65];
    else out += ch;
  }
  return out;
}

/** The padding that makes a text of `length` characters 40 % longer. */
export function padding(length: number): string {
  return ' ' + '·'.repeat(Math.max(2, Math.ceil(length * 0.4)));
}

/** The markers a test looks for: a pseudo text starts with `[` and ends with `·]`. */
export const PSEUDO_OPEN = '[';
export const PSEUDO_CLOSE = '·]';

/** One element of a parsed ICU message (the shape `IntlMessageFormat#getAst` returns). */
interface Element {
  type: number;
  value?: string;
  options?: Record<string, { value: Element[] }>;
  children?: Element[];
}

/** ICU element types (from @formatjs/icu-messageformat-parser's `TYPE`). */
const LITERAL = 0;

function literalLength(elements: readonly Element[]): number {
  let n = 0;
  for (const e of elements) {
    if (e.type === LITERAL) n += (e.value ?? '').length;
    if (e.options) n += Math.max(0, ...Object.values(e.options).map((o) => literalLength(o.value)));
    if (e.children) n += literalLength(e.children);
  }
  return n;
}

function accentTree(elements: readonly Element[]): Element[] {
  return elements.map((e) => {
    if (e.type === LITERAL) return { ...e, value: accent(e.value ?? '') };
    const copy: Element = { ...e };
    if (e.options)
      copy.options = Object.fromEntries(
        Object.entries(e.options).map(([k, o]) => [k, { ...o, value: accentTree(o.value) }]),
      );
    if (e.children) copy.children = accentTree(e.children);
    return copy;
  });
}

/** The pseudo form of a parsed English message. */
export function pseudoTree(elements: readonly Element[]): Element[] {
  const pad = padding(literalLength(elements));
  return [
    { type: LITERAL, value: PSEUDO_OPEN },
    ...accentTree(elements),
    { type: LITERAL, value: `${pad}]` },
  ];
}
