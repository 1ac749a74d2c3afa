/**
 * WebDAV XML in and out. Request bodies are read by xmlRead.ts (namespaces resolved, no entity
 * a document declares is ever expanded, stopped at the first limit); answers are written here as
 * text with every value escaped.
 */
import type { XmlElement } from './xmlRead.js';

export { parseXml, XmlError, XML_LIMITS, type XmlElement } from './xmlRead.js';

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

/** Whether a text holds anything escapeXml changes (most hrefs and ETags do not). */
// eslint-disable-next-line no-control-regex -- the control characters escapeXml removes
const NEEDS_ESCAPE = /[&<>"\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;

export function escapeXml(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return s;
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
