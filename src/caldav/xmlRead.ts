/**
 * Reading a WebDAV request body: a small XML 1.0 reader with namespaces that stops at the first
 * error or limit and costs one linear pass at native speed.
 *
 * Why not a general parser: saxes (strictly conforming, used before) resolves a prefix through
 * every open element, so 40,000 nested elements held the event loop for seconds to minutes, and
 * even without that it reads about one character per 100 ns in JavaScript: 50–300 ms for a
 * 1 MiB body on a busy machine. Here text and markup are found with indexOf and sticky regular
 * expressions (V8's native matchers), each prefix has a stack of its bindings (a lookup costs the
 * same at any depth), and every count is checked as it grows, so a hostile body is refused after
 * reading only as far as the first limit (docs/caldav.md, "Limits").
 *
 * What is checked is XML 1.0 well-formedness as a WebDAV body can use it: one root element,
 * matching tags, attribute syntax and uniqueness, the five predefined entities and character
 * references (nothing else: no DOCTYPE, so no entity can be declared, expanded or fetched),
 * comments, processing instructions, CDATA sections, the XML declaration, characters XML allows,
 * end-of-line and attribute-value normalization, and Namespaces in XML (bound prefixes, the
 * reserved `xml` and `xmlns`). test/caldav/xmlRead.unit.test.ts holds it to saxes' verdicts.
 */

import { attributeSpaces, lineFeeds } from './xmlChars.js';

export interface XmlElement {
  ns: string;
  local: string;
  /** Attributes without a namespace prefix (the only ones WebDAV and CalDAV define). */
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

export class XmlError extends Error {
  override readonly name = 'XmlError';
}

/**
 * What one request body may hold. No WebDAV or CalDAV body needs more than a handful of levels,
 * a few attributes per element, a few namespace declarations, or any comments and references at
 * all; the element count allows a calendar-multiget of thousands of hrefs.
 */
export const XML_LIMITS = {
  depth: 64,
  elements: 5_000,
  attributesPerElement: 32,
  namespaceDeclarations: 256,
  nameLength: 256,
  /** Comments, processing instructions and CDATA sections together. */
  markup: 1_000,
  /** Entity and character references (`&amp;`, `&#x41;`). */
  references: 10_000,
} as const;

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

// XML 1.0 (fifth edition) §2.3 names, §2.2 characters.
const NAME_START =
  ':A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF' +
  '\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD' +
  '\\u{10000}-\\u{EFFFF}';
const NAME_CHAR = `${NAME_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040`;
const NAME = `[${NAME_START}][${NAME_CHAR}]*`;
const S = '[ \\t\\n]';
/** With the u flag a surrogate class matches only unpaired surrogates. */
// eslint-disable-next-line no-control-regex -- these control characters are what XML forbids
const NOT_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/u;

const XML_DECL = new RegExp(
  `<\\?xml${S}+version${S}*=${S}*(?:"1\\.[0-9]+"|'1\\.[0-9]+')` +
    `(?:${S}+encoding${S}*=${S}*(?:"[A-Za-z][A-Za-z0-9._-]*"|'[A-Za-z][A-Za-z0-9._-]*'))?` +
    `(?:${S}+standalone${S}*=${S}*(?:"(?:yes|no)"|'(?:yes|no)'))?${S}*\\?>`,
  'uy',
);
// The Name production counts combining marks (U+0300–U+036F) as name characters, on purpose.
/* eslint-disable no-misleading-character-class */
const NAME_AT = new RegExp(NAME, 'uy');
const ATTRIBUTE = new RegExp(`(${NAME})${S}*=${S}*(?:"([^<"]*)"|'([^<']*)')`, 'uy');
const PI = new RegExp(`<\\?(${NAME})(?:${S}[^]*?)?\\?>`, 'uy');
/* eslint-enable no-misleading-character-class */
const REFERENCE = /&(?:#x([0-9a-fA-F]{1,6})|#([0-9]{1,7})|(lt|gt|amp|apos|quot));/y;
const WHITESPACE = /^[ \t\n]*$/;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };

/** Parses a request body into a tree of namespace-resolved elements. Throws XmlError. */
export function parseXml(body: string): XmlElement {
  if (NOT_CHAR.test(body)) fail('it holds a character XML does not allow');
  // §2.11: every line end is read as a line feed.
  const text = lineFeeds(body);
  const r = new Reader(text);
  r.read();
  if (!r.root) fail('it has no element', 'The XML body has no element');
  return r.root;
}

function fail(why: string, message = `The XML body is not valid: ${why}`): never {
  throw new XmlError(message.slice(0, 240));
}

/** One pass over the text: tokens in order, the tree built as they come. */
class Reader {
  root: XmlElement | null = null;
  private pos = 0;
  /** The open elements, their names as written, and the prefixes each declared (parallel). */
  private readonly open: XmlElement[] = [];
  private readonly openNames: string[] = [];
  private readonly openDeclared: (string[] | null)[] = [];
  /** Per prefix ('' = the default namespace), its bindings, innermost last. */
  private readonly bindings = new Map<string, string[]>();
  private elements = 0;
  private markup = 0;
  private references = 0;
  private declarations = 0;
  private closedRoot = false;

  constructor(private readonly s: string) {}

  read(): void {
    const s = this.s;
    if (/^<\?xml[ \t\n?]/.test(s)) {
      XML_DECL.lastIndex = 0;
      if (!XML_DECL.test(s)) fail('a malformed XML declaration');
      this.pos = XML_DECL.lastIndex;
    }
    while (this.pos < s.length) {
      const lt = s.indexOf('<', this.pos);
      const end = lt === -1 ? s.length : lt;
      if (end > this.pos) this.text(s.slice(this.pos, end));
      if (lt === -1) break;
      this.pos = lt;
      this.markupAt(lt);
    }
    if (this.open.length) fail(`unclosed tag: ${this.openNames[this.openNames.length - 1]}`);
  }

  private markupAt(at: number): void {
    const s = this.s;
    const next = s.charCodeAt(at + 1);
    if (next === 0x2f /* / */) return this.endTag();
    if (next === 0x3f /* ? */) return this.pi();
    if (next === 0x21 /* ! */) {
      if (s.startsWith('<!--', at)) return this.comment();
      if (s.startsWith('<![CDATA[', at)) return this.cdata();
      if (s.startsWith('<!DOCTYPE', at)) fail('a DOCTYPE is not accepted');
      fail('unknown markup after <!');
    }
    this.startTag();
  }

  private countMarkup(): void {
    if (++this.markup > XML_LIMITS.markup)
      fail(
        `it has more than ${XML_LIMITS.markup} comments, processing instructions and CDATA sections`,
      );
  }

  private text(raw: string): void {
    const top = this.open[this.open.length - 1];
    if (!top) {
      if (!WHITESPACE.test(raw)) fail('text outside the root element');
      return;
    }
    if (raw.includes(']]>')) fail('the sequence ]]> is not allowed in text');
    top.text += this.decode(raw);
  }

  /** Character and predefined entity references replaced; anything else refused. */
  private decode(raw: string): string {
    let amp = raw.indexOf('&');
    if (amp === -1) return raw;
    let out = '';
    let from = 0;
    while (amp !== -1) {
      if (++this.references > XML_LIMITS.references)
        fail(`it has more than ${XML_LIMITS.references} entity or character references`);
      REFERENCE.lastIndex = amp;
      const m = REFERENCE.exec(raw);
      if (!m) fail('an & that does not start a predefined entity or a character reference');
      let ch: string;
      if (m[3] !== undefined) ch = PREDEFINED[m[3]];
      else {
        const code = m[1] !== undefined ? parseInt(m[1], 16) : Number(m[2]);
        if (code > 0x10ffff) fail('a character reference out of range');
        ch = String.fromCodePoint(code);
        if (NOT_CHAR.test(ch)) fail('a character reference to a character XML does not allow');
      }
      out += raw.slice(from, amp) + ch;
      from = REFERENCE.lastIndex;
      amp = raw.indexOf('&', from);
    }
    return out + raw.slice(from);
  }

  private comment(): void {
    this.countMarkup();
    const close = this.s.indexOf('-->', this.pos + 4);
    if (close === -1) fail('an unclosed comment');
    const inner = this.s.slice(this.pos + 4, close);
    if (inner.includes('--') || inner.endsWith('-')) fail('-- inside a comment');
    this.pos = close + 3;
  }

  private cdata(): void {
    this.countMarkup();
    const start = this.pos + 9;
    const close = this.s.indexOf(']]>', start);
    if (close === -1) fail('an unclosed CDATA section');
    const top = this.open[this.open.length - 1];
    if (!top) fail('a CDATA section outside the root element');
    top.text += this.s.slice(start, close);
    this.pos = close + 3;
  }

  private pi(): void {
    this.countMarkup();
    PI.lastIndex = this.pos;
    const m = PI.exec(this.s);
    if (!m) fail('a malformed processing instruction');
    if (m[1].toLowerCase() === 'xml') fail('an XML declaration that is not at the start');
    // Namespaces in XML §7: no colon in a processing instruction's target.
    if (m[1].includes(':')) fail('a colon in a processing instruction target');
    this.pos = PI.lastIndex;
  }

  private startTag(): void {
    if (this.closedRoot) fail('a second root element');
    if (++this.elements > XML_LIMITS.elements)
      fail(`it has more than ${XML_LIMITS.elements} elements`);
    if (this.open.length >= XML_LIMITS.depth)
      fail(`elements nest deeper than ${XML_LIMITS.depth} levels`);
    const s = this.s;
    const nameEnd = nameAt(s, this.pos + 1);
    if (nameEnd === -1) fail('a < that does not start a tag');
    const name = checkName(s.slice(this.pos + 1, nameEnd), 'an element');
    let at = nameEnd;
    let attributes: [string, string][] | null = null;
    for (;;) {
      const before = at;
      at = skipSpace(s, at);
      const c = s.charCodeAt(at);
      if (c === 0x3e /* > */ || c === 0x2f /* / */) break;
      // An attribute, after at least one white-space character.
      if (at === before) fail(`a malformed start tag: ${name.slice(0, 40)}`);
      ATTRIBUTE.lastIndex = at;
      const a = ATTRIBUTE.exec(s);
      if (!a) fail(`a malformed attribute in the start tag ${name.slice(0, 40)}`);
      attributes ??= [];
      if (attributes.length >= XML_LIMITS.attributesPerElement)
        fail(`an element has more than ${XML_LIMITS.attributesPerElement} attributes`);
      const attrName = checkName(a[1], 'an attribute');
      if (attributes.some(([n]) => n === attrName)) fail(`duplicate attribute: ${attrName}`);
      // §3.3.3: white space in a value reads as a space; references are then replaced.
      attributes.push([attrName, this.decode(attributeSpaces(a[2] ?? a[3]))]);
      at = ATTRIBUTE.lastIndex;
    }
    let c = s.charCodeAt(at);
    const selfClosing = c === 0x2f;
    if (selfClosing) c = s.charCodeAt(++at);
    if (c !== 0x3e) fail(`a malformed start tag: ${name.slice(0, 40)}`);
    this.pos = at + 1;
    this.openElement(name, attributes);
    if (selfClosing) this.closeElement();
  }

  private endTag(): void {
    const s = this.s;
    const nameEnd = nameAt(s, this.pos + 2);
    if (nameEnd === -1) fail('a malformed end tag');
    const name = s.slice(this.pos + 2, nameEnd);
    if (this.openNames[this.openNames.length - 1] !== name)
      fail(`unexpected close tag: ${name.slice(0, 40)}`);
    const at = skipSpace(s, nameEnd);
    if (s.charCodeAt(at) !== 0x3e) fail('a malformed end tag');
    this.pos = at + 1;
    this.closeElement();
  }

  private openElement(name: string, attributes: [string, string][] | null): void {
    // 1. The element's own declarations first: they apply to its name and its attributes.
    let declared: string[] | null = null;
    for (const [attrName, value] of attributes ?? []) {
      const q = qname(attrName);
      const prefix = attrName === 'xmlns' ? '' : q.prefix === 'xmlns' ? q.local : null;
      if (prefix === null) continue;
      if (++this.declarations > XML_LIMITS.namespaceDeclarations)
        fail(`it declares more than ${XML_LIMITS.namespaceDeclarations} namespaces`);
      const uri = value.trim();
      checkBinding(prefix, uri);
      let list = this.bindings.get(prefix);
      if (!list) this.bindings.set(prefix, (list = []));
      list.push(uri);
      (declared ??= []).push(prefix);
    }
    // 2. Its attributes: those without a prefix are kept; namespaced ones (xml:lang, a
    // client's own) carry nothing the door reads, but their prefixes must be bound and no two
    // may name the same attribute.
    const attrs: Record<string, string> = {};
    let expanded: Set<string> | null = null;
    for (const [attrName, value] of attributes ?? []) {
      if (attrName === 'xmlns' || attrName.startsWith('xmlns:')) continue;
      const q = qname(attrName);
      if (q.prefix === '') {
        attrs[attrName] = value;
        continue;
      }
      const uri = this.resolve(q.prefix);
      if (uri === undefined) fail(`unbound namespace prefix: ${q.prefix.slice(0, 40)}`);
      const key = `{${uri}}${q.local}`;
      if ((expanded ??= new Set()).has(key)) fail(`duplicate attribute: ${key.slice(0, 80)}`);
      expanded.add(key);
    }
    // 3. Its name.
    const { prefix, local } = qname(name);
    if (prefix === 'xmlns') fail('an element named with the prefix xmlns');
    const ns = this.resolve(prefix);
    if (ns === undefined) fail(`unbound namespace prefix: ${prefix.slice(0, 40)}`);
    const el: XmlElement = { ns, local, attrs, children: [], text: '' };
    const parent = this.open[this.open.length - 1];
    if (parent) parent.children.push(el);
    else this.root = el;
    this.open.push(el);
    this.openNames.push(name);
    this.openDeclared.push(declared);
  }

  private closeElement(): void {
    this.open.pop();
    this.openNames.pop();
    const declared = this.openDeclared.pop();
    if (declared) for (const prefix of declared) this.bindings.get(prefix)!.pop();
    if (!this.open.length) this.closedRoot = true;
  }

  /** The namespace of a prefix in scope (undefined when unbound). */
  private resolve(prefix: string): string | undefined {
    if (prefix === 'xml') return XML_NS;
    const list = this.bindings.get(prefix);
    if (list?.length) return list[list.length - 1];
    return prefix === '' ? '' : undefined;
  }
}

/**
 * Where the XML name starting at `at` ends, or -1 when none starts there. ASCII names (all that
 * WebDAV uses) are scanned by hand, which costs less than a regular expression's call; a name
 * with other characters is checked against the full production.
 */
function nameAt(s: string, at: number): number {
  let i = at;
  // A name longer than the limit is refused anyway: its end is not looked for.
  const last = Math.min(s.length, at + XML_LIMITS.nameLength + 1);
  for (; i < last; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) {
      NAME_AT.lastIndex = at;
      return NAME_AT.test(s) ? NAME_AT.lastIndex : -1;
    }
    const letter = (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x3a;
    const digit = (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e;
    if (letter || (digit && i > at)) continue;
    break;
  }
  return i > at ? i : -1;
}

const SPACE = /[ \t\n]*/y;

/** Where the white space starting at `at` ends (a native scan: a megabyte of it is one call). */
function skipSpace(s: string, at: number): number {
  SPACE.lastIndex = at;
  SPACE.test(s);
  return SPACE.lastIndex;
}

function checkName(name: string, what: string): string {
  if (name.length > XML_LIMITS.nameLength)
    fail(`${what} name is longer than ${XML_LIMITS.nameLength} characters`);
  return name;
}

/** `prefix:local` (at most one colon, neither part empty), or a name without a prefix. */
function qname(name: string): { prefix: string; local: string } {
  const colon = name.indexOf(':');
  if (colon === -1) return { prefix: '', local: name };
  const prefix = name.slice(0, colon);
  const local = name.slice(colon + 1);
  if (prefix === '' || local === '' || local.includes(':'))
    fail(`malformed name: ${name.slice(0, 40)}`);
  return { prefix, local };
}

/** The reserved prefixes and names of Namespaces in XML 1.0 (§3). */
function checkBinding(prefix: string, uri: string): void {
  if (prefix !== '' && uri === '') fail(`the prefix ${prefix.slice(0, 40)} cannot be undeclared`);
  if (prefix === 'xmlns') fail('the prefix xmlns cannot be declared');
  if (prefix === 'xml' ? uri !== XML_NS : uri === XML_NS)
    fail('the prefix xml is bound to its own namespace only');
  if (uri === XMLNS_NS) fail('the xmlns namespace cannot be bound');
}
