/**
 * An object's `<d:response>` in a REPORT, kept with the object: a query answering thirty objects
 * asks for the same few properties of each (getetag and calendar-data) on every new window, and
 * the response of an unchanged object to the same properties is the same text. Kept per object
 * (the collection's objects are made again on every family write) and per the properties asked,
 * with its size in bytes; only for requests whose answer depends on nothing else (a
 * calendar-data that selects components or properties is written each time).
 */
import { hasScope } from '../family/scopes.js';
import type { DavCollection, DavObject } from './objects.js';
import { respond, responseAroundData, type PropContext } from './props.js';
import { CALDAV, DAV, child, type QName, type XmlElement } from './xml.js';

/** Text and its size in bytes. */
export interface Sized {
  text: string;
  bytes: number;
}

/**
 * What an object's response depends on in a request besides the object: the properties asked
 * and whether the key may write (current-user-privilege-set). Null when it depends on more: a
 * calendar-data element with attributes or with children other than expand.
 */
export function responseKey(prop: XmlElement | undefined, x: PropContext): string | null {
  const data = child(prop, CALDAV, 'calendar-data');
  if (data) {
    if (Object.keys(data.attrs).length) return null;
    if (data.children.some((c) => !(c.ns === CALDAV && c.local === 'expand'))) return null;
  }
  const names = (prop?.children ?? []).map((c) => `${c.ns}|${c.local}`).join(' ');
  const expand = child(data, CALDAV, 'expand') ? ' expanded' : '';
  return `${hasScope(x.req.key, 'write') ? 'w' : 'r'} ${names}${expand}`;
}

/**
 * By object, then by key: the plain response, or the head and tail around an expansion (a key
 * holds one or the other: an expand element is part of what the key names).
 */
const kept = new WeakMap<DavObject, Map<string, Sized | { head: Sized; tail: Sized }>>();

/** Bounds the responses kept per object (one per distinct set of properties asked). */
const PER_OBJECT = 8;

function keptFor(obj: DavObject): Map<string, Sized | { head: Sized; tail: Sized }> {
  let k = kept.get(obj);
  if (!k) kept.set(obj, (k = new Map<string, Sized | { head: Sized; tail: Sized }>()));
  else if (k.size >= PER_OBJECT) k.clear();
  return k;
}

const sized = (text: string): Sized => ({ text, bytes: Buffer.byteLength(text) });

/** The object's response with `props`, kept under `key` (written each time when key is null). */
export function objectResponse(
  col: DavCollection,
  obj: DavObject,
  props: QName[],
  x: PropContext,
  key: string | null,
): Sized {
  const hit = key === null ? undefined : kept.get(obj)?.get(key);
  if (hit && 'text' in hit) return hit;
  const r = sized(respond({ type: 'object', col, obj }, props, x));
  if (key !== null) keptFor(obj).set(key, r);
  return r;
}

/**
 * What comes before and after an object's expanded calendar-data (responseAroundData), kept
 * under `key` unless getcontentlength is asked (it is the expansion's own length).
 */
export function aroundExpanded(
  col: DavCollection,
  obj: DavObject,
  props: QName[],
  x: PropContext,
  key: string | null,
  length: number,
): { head: Sized; tail: Sized } {
  const keep = key !== null && !props.some((p) => p.ns === DAV && p.local === 'getcontentlength');
  const k = keep ? `expand ${key}` : null;
  const hit = k === null ? undefined : kept.get(obj)?.get(k);
  if (hit && 'head' in hit) return hit;
  const around = responseAroundData({ type: 'object', col, obj }, props, x, length);
  const r = { head: sized(around.head), tail: sized(around.tail) };
  if (k !== null) keptFor(obj).set(k, r);
  return r;
}
