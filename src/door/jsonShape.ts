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
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      if (end === -1) return null;
      const top = stack[stack.length - 1];
      // A key: a string in an object followed by a colon.
      if (top?.object && nextNonSpace(text, end + 1) === 0x3a) top.key = keyText(text, i, end);
      i = end;
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

/** Index of the quote that closes the string opened at `open`, or -1. */
function stringEnd(text: string, open: number): number {
  let at = text.indexOf('"', open + 1);
  while (at !== -1) {
    let backslashes = 0;
    for (let j = at - 1; text.charCodeAt(j) === 0x5c; j--) backslashes++;
    if (backslashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
  return -1;
}

function nextNonSpace(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return c;
  }
  return -1;
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
