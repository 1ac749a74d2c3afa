/**
 * The shape caps of a JSON body (nesting, keys per object, items per array), checked on the text
 * before JSON.parse builds anything. JSON.parse cannot stop early: within the 1 MiB limit,
 * 250,000 nested arrays cost it about 40 ms and 80,000 keys about 50 ms of the event loop on a
 * busy two-core machine, all before the walk after it (body.ts, checkShape) could refuse them.
 * This scan reads the text once at native speed for strings (indexOf) and stops at the first
 * cap passed, naming where, as checkShape would. It only counts: a body that is not JSON is
 * left to JSON.parse to refuse (the scan gives up on anything it does not expect).
 */
import type { Issue, Path } from '../domain/shared/errors.js';

export interface ShapeCaps {
  depth: number;
  keys: number;
  items: number;
}

interface Frame {
  object: boolean;
  /** Commas seen at this level: members or items so far, less one. */
  commas: number;
  /** The member being read (objects) — its key, once read. */
  key: string | null;
}

/** The first cap the text passes, as the issue checkShape would report, or null. */
export function scanShape(text: string, caps: ShapeCaps): Issue | null {
  const stack: Frame[] = [];
  const pathOf = (upTo = stack.length): Path =>
    stack.slice(0, upTo).map((f) => (f.object ? (f.key ?? '') : f.commas));
  // From one character that matters to the next, natively: white space, numbers and literals
  // between them cost no JavaScript.
  const next = /["{}[\],]/g;
  for (let m = next.exec(text); m; m = next.exec(text)) {
    const i = m.index;
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      if (end === -1) return null;
      const after = nextNonSpace(text, end + 1);
      // In JSON a string is followed by one of these (or ends the text); anything else is left
      // to JSON.parse to refuse, so no run of strings costs a step each.
      if (after !== -1 && after !== 0x3a && after !== 0x2c && after !== 0x5d && after !== 0x7d)
        return null;
      const top = stack[stack.length - 1];
      // A key: a string in an object followed by a colon.
      if (top?.object && after === 0x3a) top.key = keyText(text, i, end);
      next.lastIndex = end + 1;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (stack.length >= caps.depth)
        return { path: pathOf(), message: `nests deeper than ${caps.depth} levels` };
      stack.push({ object: c === 0x7b, commas: 0, key: null });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      if (!stack.pop()) return null;
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (!top) return null;
      if (++top.commas >= (top.object ? caps.keys : caps.items)) {
        const path = pathOf(stack.length - 1);
        return top.object
          ? { path, message: `must have at most ${caps.keys} keys` }
          : { path, message: `must have at most ${caps.items} items` };
      }
    }
  }
  return null;
}

const CLOSES_AT_ONCE = /(?:\\\\)*"/y;
/** A quote after a character that is not a backslash and an even run of backslashes. */
const CLOSES = /[^\\](?:\\\\)*"/g;

/** Index of the quote that closes the string opened at `open`, or -1 (native scans only). */
function stringEnd(text: string, open: number): number {
  CLOSES_AT_ONCE.lastIndex = open + 1;
  if (CLOSES_AT_ONCE.test(text)) return CLOSES_AT_ONCE.lastIndex - 1;
  CLOSES.lastIndex = open + 1;
  return CLOSES.test(text) ? CLOSES.lastIndex - 1 : -1;
}

const SPACE = /[ \t\n\r]*/y;

function nextNonSpace(text: string, from: number): number {
  SPACE.lastIndex = from;
  SPACE.test(text);
  return SPACE.lastIndex < text.length ? text.charCodeAt(SPACE.lastIndex) : -1;
}

/** A key as JSON.parse would read it (escapes resolved), for the path of an issue. */
function keyText(text: string, open: number, close: number): string {
  const raw = text.slice(open + 1, close);
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(text.slice(open, close + 1)) as string;
  } catch {
    return raw;
  }
}
