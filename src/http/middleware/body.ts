/**
 * Reads a request body as JSON or refuses it: nothing is ever ignored (docs/api.md).
 *
 * 1. Content type `application/json` or `application/*+json` (a merge patch is JSON too), in
 *    UTF-8; anything else → 415.
 * 2. Content-Encoding identity, gzip, deflate or br; another → 415; bytes that are not what
 *    the header says → 400.
 * 3. The size limit holds for the bytes on the wire and for the decoded text → 413.
 * 4. The shape caps below checked on the text (jsonShape.ts: JSON.parse cannot stop early, and
 *    a million-level or 80,000-key body cost it tens of ms), then JSON.parse, then one
 *    iterative walk (no recursion, so no nesting can overflow the stack) enforcing the caps
 *    again and refusing keys that name object internals → 400 naming the path. All of this
 *    happens before validation walks the value.
 *
 * The text is kept as `ctx.request.rawBody` (idempotency fingerprints it); `ctx.request.body`
 * is the parsed object, or undefined when the request had no body.
 */
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Transform } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';
import {
  Invalid,
  MAX_ISSUES,
  failOnIssues,
  type Issue,
  type Path,
} from '../../domain/shared/errors.js';
import { HttpError } from '../errors.js';
import { scanShape } from './jsonShape.js';

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

const DECODERS: Record<string, (() => Transform) | null> = {
  identity: null,
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** Fatal: invalid UTF-8 is refused rather than turned into U+FFFD. A leading BOM is dropped. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

const JSON_TYPE = /^application\/(?:json|[a-z0-9!#$&^_.-]+\+json)$/;

function unsupported(message: string): HttpError {
  return new HttpError(415, 'unsupported_media_type', message);
}

function tooLarge(limit: number): HttpError {
  return new HttpError(
    413,
    'payload_too_large',
    `The request body is larger than the limit of ${limit} bytes`,
  );
}

export function jsonBody(limitBytes: number): Koa.Middleware {
  return async (ctx, next) => {
    const req = ctx.req;
    const hasBody = (ctx.request.length ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (!hasBody) {
      setBody(ctx, undefined, '');
      return next();
    }
    // 1. What it is.
    const type = ctx.request.type.toLowerCase();
    if (!JSON_TYPE.test(type)) {
      throw unsupported(
        'Request bodies must be JSON (content-type: application/json or application/*+json)',
      );
    }
    const charset = ctx.request.charset.toLowerCase();
    if (charset && charset !== 'utf-8' && charset !== 'utf8') {
      throw unsupported(`Request bodies must be UTF-8 JSON, not ${charset.slice(0, 40)}`);
    }
    // 2. How it is encoded.
    const encoding = (ctx.get('content-encoding') || 'identity').trim().toLowerCase();
    if (!(encoding in DECODERS)) {
      throw unsupported(
        `The content encoding ${JSON.stringify(encoding.slice(0, 40))} is not supported (use gzip, deflate, br or none)`,
      );
    }
    // 3. How big it is, declared and then counted.
    if ((ctx.request.length ?? 0) > limitBytes) throw tooLarge(limitBytes);
    const bytes = await readAll(req, DECODERS[encoding], encoding, limitBytes);

    // 4. What it says.
    let text: string;
    try {
      text = UTF8.decode(bytes);
    } catch {
      throw new Invalid('The request body is not valid UTF-8', [
        { path: [], message: 'is not valid UTF-8' },
      ]);
    }
    if (text.trim() === '') {
      setBody(ctx, undefined, text);
      return next();
    }
    // The caps that JSON.parse would spend the most on are checked on the text first.
    const early = scanShape(text, BODY_CAPS);
    if (early) failOnIssues([early]);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      // V8's message quotes the body; only the position is passed on.
      const at = /position (\d+)/.exec(String((err as Error).message))?.[1];
      const where = at ? ` (at character ${at})` : '';
      throw new Invalid(`The request body is not valid JSON${where}`, [
        { path: [], message: `is not valid JSON${where}` },
      ]);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new Invalid('The request body must be a JSON object', [
        { path: [], message: 'must be a JSON object' },
      ]);
    }
    const issues = checkShape(value);
    failOnIssues(issues);
    setBody(ctx, value, text);
    await next();
  };
}

function setBody(ctx: Koa.Context, body: unknown, raw: string): void {
  const request = ctx.request as Koa.Request & { body?: unknown; rawBody?: string };
  request.body = body;
  request.rawBody = raw;
}

/**
 * Collects the body, decoding it on the way, and fails with 413 as soon as either the wire
 * bytes or the decoded bytes pass the limit (a small gzip body can inflate a thousandfold; and
 * empty gzip members decode to nothing, so the wire bytes need a cap of their own). The
 * request stream is left unread after a failure, not destroyed, so the answer still reaches
 * the client (Node discards the rest).
 */
function readAll(
  req: IncomingMessage,
  makeDecoder: (() => Transform) | null,
  encoding: string,
  limit: number,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let wire = 0;
    let decoded = 0;
    let settled = false;
    const decoder = makeDecoder ? makeDecoder() : null;

    const cleanup = () => {
      req.off('data', onWire);
      req.off('end', onWireEnd);
      req.off('error', onAborted);
      req.off('close', onClose);
      if (decoder) {
        decoder.off('data', onDecoded);
        decoder.off('end', finish);
        decoder.destroy();
      }
    };
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      cleanup();
      reject(err);
    };
    const finish = () => {
      if (settled) return;
      settled = true;
      cleanup();
      resolve(Buffer.concat(chunks, decoded));
    };
    const onDecoded = (chunk: Buffer) => {
      decoded += chunk.length;
      if (decoded > limit) return fail(tooLarge(limit));
      chunks.push(chunk);
    };
    const onWire = (chunk: Buffer) => {
      wire += chunk.length;
      if (wire > limit) return fail(tooLarge(limit));
      if (decoder) decoder.write(chunk);
      else onDecoded(chunk);
    };
    const onWireEnd = () => {
      if (decoder) decoder.end();
      else finish();
    };
    const onAborted = () =>
      fail(
        new Invalid('The request body ended before it was complete', [
          { path: [], message: 'was cut off' },
        ]),
      );
    const onClose = () => {
      if (!req.complete) onAborted();
    };

    if (decoder) {
      decoder.on('data', onDecoded);
      decoder.on('end', finish);
      decoder.on('error', () =>
        fail(
          new Invalid(
            `The request body is not valid ${encoding} data (Content-Encoding: ${encoding})`,
            [
              {
                path: ['header', 'Content-Encoding'],
                message: `does not match the body: it is not ${encoding} data`,
              },
            ],
          ),
        ),
      );
    }
    req.on('data', onWire);
    req.on('end', onWireEnd);
    req.on('error', onAborted);
    req.on('close', onClose);
  });
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
