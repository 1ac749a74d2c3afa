/**
 * The shape caps of a JSON body (nesting, keys per object, items per array, forbidden keys,
 * well-formed Unicode): BODY_CAPS, the scan of the text before JSON.parse builds anything, and
 * the walk over the parsed value after it (checkShape); body.ts reads the body and calls both.
 *
 * JSON.parse cannot stop early: within the 1 MiB limit, 250,000 nested arrays cost it about
 * 40 ms and 80,000 keys about 50 ms of the event loop on a busy two-core machine, all before the
 * walk after it (checkShape) could refuse them.
 * This scan reads the text once at native speed for strings (indexOf) and stops at the first
 * cap passed, naming where, as checkShape would. It only counts: a body that is not JSON is
 * left to JSON.parse to refuse (the scan gives up on anything it does not expect).
 */
import { MAX_ISSUES, type Issue, type Path } from '../domain/shared/errors.js';

/**
 * Shape caps (docs/decisions.md, "Request bodies and rate limits"). The API's largest
 * legitimate shapes (docs/api.md) are far below them: 200 ids in a share, 100 fields of 100
 * options, 50 batch items, nesting of about five levels.
 */
export const BODY_CAPS = { depth: 32, keys: 1000, items: 1000 } as const;

/**
 * Keys that reach object internals: `__proto__`, `constructor` and `prototype` pollute
 * prototypes when a value is copied or merged; the other names of Object.prototype's members
 * (`toString`, `valueOf`, `hasOwnProperty`, …) shadow methods that code calls on any object —
 * an own `toString` that is not a function makes `${value}` throw, even inside superstruct's
 * error messages.
 */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set([
  'prototype',
  ...Object.getOwnPropertyNames(Object.prototype),
]);

/** With the u flag a surrogate class matches only unpaired surrogates. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

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

/**
 * One pass over the parsed value with an explicit stack: depth, keys per object, items per
 * array, forbidden keys, and strings or keys that are not well-formed Unicode (a lone
 * surrogate from a `\ud800` escape cannot be written as UTF-8 anywhere later). Stops after a
 * few issues; an oversized array is reported and not entered.
 */
export function checkShape(root: object): Issue[] {
  interface Frame {
    value: object;
    depth: number;
    key: string | number | null;
    parent: Frame | null;
  }
  const issues: Issue[] = [];
  const pathOf = (f: Frame, extra?: string | number): Path => {
    const path: Path = extra === undefined ? [] : [extra];
    for (let at: Frame | null = f; at && at.key !== null; at = at.parent) path.unshift(at.key);
    return path;
  };
  const stack: Frame[] = [{ value: root, depth: 1, key: null, parent: null }];
  // Strings are checked where they are met; only objects and arrays go on the stack.
  const visit = (parent: Frame, key: string | number, child: unknown) => {
    if (typeof child === 'string') {
      if (LONE_SURROGATE.test(child))
        issues.push({
          path: pathOf(parent, key),
          message: 'is not well-formed Unicode (a lone surrogate)',
        });
    } else if (typeof child === 'object' && child !== null) {
      stack.push({ value: child, depth: parent.depth + 1, key, parent });
    }
  };
  while (stack.length && issues.length < MAX_ISSUES) {
    const frame = stack.pop()!;
    const { value, depth } = frame;
    if (depth > BODY_CAPS.depth) {
      issues.push({ path: pathOf(frame), message: `nests deeper than ${BODY_CAPS.depth} levels` });
      continue;
    }
    if (Array.isArray(value)) {
      if (value.length > BODY_CAPS.items) {
        issues.push({ path: pathOf(frame), message: `must have at most ${BODY_CAPS.items} items` });
        continue;
      }
      for (let i = value.length - 1; i >= 0; i--) visit(frame, i, value[i]);
      continue;
    }
    const keys = Object.keys(value);
    if (keys.length > BODY_CAPS.keys) {
      issues.push({ path: pathOf(frame), message: `must have at most ${BODY_CAPS.keys} keys` });
      continue;
    }
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      if (FORBIDDEN_KEYS.has(key))
        issues.push({
          path: pathOf(frame, key),
          message: 'is not allowed as a key (it names a built-in property of objects)',
        });
      else if (LONE_SURROGATE.test(key))
        issues.push({
          path: pathOf(frame, key),
          message: 'is not well-formed Unicode (a lone surrogate)',
        });
      else visit(frame, key, (value as Record<string, unknown>)[key]);
    }
  }
  return issues.slice(0, MAX_ISSUES);
}
