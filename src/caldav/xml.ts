/**
 * WebDAV XML in and out. Request bodies are read with saxes, a small, maintained, strictly
 * conforming XML parser that resolves namespaces (WebDAV clients pick any prefix, or none) and
 * never expands entities a document declares: a body with a DOCTYPE is refused before any
 * element is read, so neither an external entity nor an entity bomb can cost anything.
 * Answers are written as text with every value escaped.
 */
import { SaxesParser } from 'saxes';

export const DAV = 'DAV:';
export const CALDAV = 'urn:ietf:params:xml:ns:caldav';
export const CS = 'http://calendarserver.org/ns/';
export const APPLE = 'http://apple.com/ns/ical/';
export const HOUSEHOLD = 'urn:household-organizer:caldav';

/** Prefixes used in answers; unknown namespaces get `x0`, `x1`, … on the element itself. */
const PREFIX: Record<string, string> = {
  [DAV]: 'd',
  [CALDAV]: 'c',
  [CS]: 'cs',
  [APPLE]: 'ic',
  [HOUSEHOLD]: 'h',
};

export interface XmlElement {
  ns: string;
  local: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

export class XmlError extends Error {
  override readonly name = 'XmlError';
}

/** Elements nested deeper than this are refused (no WebDAV body needs more than a handful). */
const MAX_DEPTH = 64;
const MAX_ELEMENTS = 20_000;

/** Parses a request body into a tree of namespace-resolved elements. Throws XmlError. */
export function parseXml(text: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true, position: false });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let count = 0;
  let failure: string | null = null;
  parser.on('error', (e) => {
    failure ??= e.message;
  });
  parser.on('doctype', () => {
    failure ??= 'a DOCTYPE is not accepted';
  });
  parser.on('opentag', (node) => {
    if (failure) return;
    if (++count > MAX_ELEMENTS || stack.length >= MAX_DEPTH) {
      failure = 'the XML body is too large or too deeply nested';
      return;
    }
    const attrs: Record<string, string> = {};
    for (const a of Object.values(node.attributes)) {
      const attr = a as { local: string; uri: string; value: string };
      if (!attr.uri) attrs[attr.local] = attr.value;
    }
    const el: XmlElement = {
      ns: node.uri ?? '',
      local: node.local ?? node.name,
      attrs,
      children: [],
      text: '',
    };
    if (stack.length) stack[stack.length - 1].children.push(el);
    else root = el;
    stack.push(el);
  });
  parser.on('text', (t) => {
    if (!failure && stack.length) stack[stack.length - 1].text += t;
  });
  parser.on('cdata', (t) => {
    if (!failure && stack.length) stack[stack.length - 1].text += t;
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  try {
    parser.write(text).close();
  } catch (e) {
    failure ??= (e as Error).message;
  }
  if (failure) throw new XmlError(`The XML body is not valid: ${failure.slice(0, 200)}`);
  if (!root) throw new XmlError('The XML body has no element');
  return root;
}

export function child(
  el: XmlElement | undefined,
  ns: string,
  local: string,
): XmlElement | undefined {
  return el?.children.find((c) => c.ns === ns && c.local === local);
}

export function children(el: XmlElement | undefined, ns: string, local: string): XmlElement[] {
  return el?.children.filter((c) => c.ns === ns && c.local === local) ?? [];
}

export function escapeXml(s: string): string {
  return (
    s
      .replace(/[&<>"]/g, (c) =>
        c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;',
      )
      // Characters XML 1.0 cannot carry at all.
      // eslint-disable-next-line no-control-regex -- these control characters are what it removes
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
  );
}

/** A property name as the answer writes it: `d:getetag`, or an element with its own xmlns. */
export interface QName {
  ns: string;
  local: string;
}

export function qname(ns: string, local: string): QName {
  return { ns, local };
}

/** An element: `<p:local>inner</p:local>`, or self-closed when inner is empty. */
export function el(name: QName, inner = ''): string {
  const prefix = PREFIX[name.ns];
  if (prefix)
    return inner
      ? `<${prefix}:${name.local}>${inner}</${prefix}:${name.local}>`
      : `<${prefix}:${name.local}/>`;
  const decl = name.ns ? ` xmlns="${escapeXml(name.ns)}"` : ' xmlns=""';
  return inner ? `<${name.local}${decl}>${inner}</${name.local}>` : `<${name.local}${decl}/>`;
}

export function d(local: string, inner = ''): string {
  return el({ ns: DAV, local }, inner);
}
export function c(local: string, inner = ''): string {
  return el({ ns: CALDAV, local }, inner);
}

const NAMESPACES = Object.entries(PREFIX)
  .map(([ns, p]) => ` xmlns:${p}="${ns}"`)
  .join('');

/** A whole document around a root element written with the known prefixes. */
export function document(rootLocal: string, inner: string, rootNs = DAV): string {
  const p = PREFIX[rootNs];
  return `<?xml version="1.0" encoding="utf-8"?>\n<${p}:${rootLocal}${NAMESPACES}>${inner}</${p}:${rootLocal}>`;
}
