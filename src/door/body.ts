/**
 * The one reader of request bodies, for every door: bounded, decoded and checked before any
 * door looks at them. REST, the live stream and MCP read JSON (`jsonBody`); CalDAV reads XML
 * and iCalendar text (`readText`); the OAuth endpoints read forms and JSON as text; a cluster
 * node reads the bytes as sent to sign and forward them (`readRaw`, and `replayBody` hands the
 * same bytes to whoever reads next). Nothing is ever ignored (docs/api.md). For JSON:
 *
 * 1. Content type `application/json` or `application/*+json` (a merge patch is JSON too), in
 *    UTF-8; anything else → 415.
 * 2. Content-Encoding identity, gzip, deflate or br; another → 415; bytes that are not what
 *    the header says → 400.
 * 3. The size limit holds for the bytes on the wire and for the decoded text → 413.
 * 4. The shape caps (jsonShape.ts) checked on the text (JSON.parse cannot stop early, and a
 *    million-level or 80,000-key body cost it tens of ms), then JSON.parse, then one iterative
 *    walk (checkShape: no recursion, so no nesting can overflow the stack) enforcing the caps
 *    again and refusing keys that name object internals → 400 naming the path. All of this
 *    happens before validation walks the value.
 *
 * The text is kept as `ctx.request.rawBody` (idempotency fingerprints it); `ctx.request.body`
 * is the parsed object, or undefined when the request had no body.
 *
 * Text bodies (`readText`) are UTF-8 (a leading BOM dropped), in the encodings the door takes,
 * within its limit; the same refusals (413, 415, 400) in the door's own form.
 */
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Transform } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type Koa from 'koa';
import { Invalid, failOnIssues } from '../domain/shared/errors.js';
import { DoorError } from './errors.js';
import { BODY_CAPS, checkShape, scanShape } from './jsonShape.js';

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

function unsupported(message: string): DoorError {
  return new DoorError('unsupported_media_type', message);
}

function tooLarge(limit: number): DoorError {
  return new DoorError(
    'payload_too_large',
    `The request body is larger than the limit of ${limit} bytes`,
  );
}

/** Whether the request has a body at all (a length, or chunks coming). */
export function hasBody(ctx: Koa.Context): boolean {
  return (ctx.request.length ?? 0) > 0 || ctx.req.headers['transfer-encoding'] !== undefined;
}

/** The request's Content-Encoding, lower case (`identity` when none). */
function encodingOf(ctx: Koa.Context): string {
  return (ctx.get('content-encoding') || 'identity').trim().toLowerCase();
}

/** Refuses a charset other than UTF-8 (none named is UTF-8). */
function utf8Only(ctx: Koa.Context, what: string): void {
  const charset = ctx.request.charset?.toLowerCase();
  if (charset && charset !== 'utf-8' && charset !== 'utf8') {
    throw unsupported(`Request bodies must be UTF-8${what}, not ${charset.slice(0, 40)}`);
  }
}

/** Bytes as UTF-8 text (fatal: invalid UTF-8 is refused, not turned into U+FFFD). */
function utf8Text(bytes: Buffer): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new Invalid('The request body is not valid UTF-8', [
      { path: [], message: 'is not valid UTF-8' },
    ]);
  }
}

export interface TextBodyOptions {
  /** At most this many bytes, on the wire and decoded. */
  limitBytes: number;
  /** Whether compressed bodies are taken (gzip, deflate, br), or only the body as it is. */
  compressed: boolean;
}

/** A text body (XML, iCalendar, a form): '' when there is none; a leading BOM dropped. */
export async function readText(ctx: Koa.Context, opts: TextBodyOptions): Promise<string> {
  if (!hasBody(ctx)) return '';
  utf8Only(ctx, '');
  const encoding = encodingOf(ctx);
  if (!(encoding in DECODERS) || (!opts.compressed && encoding !== 'identity'))
    throw unsupported(
      opts.compressed
        ? `The content encoding ${JSON.stringify(encoding.slice(0, 40))} is not supported (use gzip, deflate, br or none)`
        : `Content-Encoding ${encoding.slice(0, 40)} is not accepted here; send the body as it is`,
    );
  if ((ctx.request.length ?? 0) > opts.limitBytes) throw tooLarge(opts.limitBytes);
  const bytes = await readAll(ctx.req, DECODERS[encoding], encoding, opts.limitBytes);
  return utf8Text(bytes).replace(/^\uFEFF/, '');
}

/**
 * The body exactly as sent (any content type, still compressed when Content-Encoding says so),
 * at most `limitBytes`: what a cluster node signs and forwards. Read once; `replayBody` hands
 * the same bytes to the readers after it.
 */
export async function readRaw(ctx: Koa.Context, limitBytes: number): Promise<Buffer> {
  if ((ctx.request.length ?? 0) > limitBytes) throw tooLarge(limitBytes);
  if (ctx.req.readableEnded) return Buffer.alloc(0);
  return readAll(ctx.req, null, 'identity', limitBytes);
}

export function jsonBody(limitBytes: number): Koa.Middleware {
  return async (ctx, next) => {
    const req = ctx.req;
    if (!hasBody(ctx)) {
      setBody(ctx, undefined, '');
      return void (await next());
    }
    // 1. What it is.
    const type = ctx.request.type.toLowerCase();
    if (!JSON_TYPE.test(type)) {
      throw unsupported(
        'Request bodies must be JSON (content-type: application/json or application/*+json)',
      );
    }
    utf8Only(ctx, ' JSON');
    // 2. How it is encoded.
    const encoding = encodingOf(ctx);
    if (!(encoding in DECODERS)) {
      throw unsupported(
        `The content encoding ${JSON.stringify(encoding.slice(0, 40))} is not supported (use gzip, deflate, br or none)`,
      );
    }
    // 3. How big it is, declared and then counted.
    if ((ctx.request.length ?? 0) > limitBytes) throw tooLarge(limitBytes);
    const bytes = await readAll(req, DECODERS[encoding], encoding, limitBytes);

    // 4. What it says.
    const text = utf8Text(bytes);
    if (text.trim() === '') {
      setBody(ctx, undefined, text);
      return void (await next());
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

/** What a reader of a request may touch besides its stream: Koa, our readers, the MCP SDK. */
const REQUEST_FIELDS = [
  'headers',
  'rawHeaders',
  'trailers',
  'rawTrailers',
  'method',
  'url',
  'httpVersion',
  'httpVersionMajor',
  'httpVersionMinor',
  'socket',
] as const;

/**
 * Makes the body read by `readRaw` readable once more. The request's stream is spent, so
 * Koa's request gets a stand-in: a Readable holding the same bytes, with the request's
 * headers, method, URL, HTTP version and socket, marked complete (readers treat a close before
 * completion as a cut-off body). Every reader after this one reads `ctx.req` (Koa's
 * `ctx.request.req` is the same object), and none of them checks the class. The response,
 * and with it the connection, stays the real one.
 */
export function replayBody(ctx: Koa.Context, body: Buffer): void {
  const original = ctx.req as unknown as Record<string, unknown>;
  const replay = new Readable({ read() {} }) as Readable & Record<string, unknown>;
  for (const name of REQUEST_FIELDS) replay[name] = original[name];
  replay.connection = original.socket;
  replay.complete = true;
  replay.aborted = false;
  if (body.length) replay.push(body);
  replay.push(null);
  const req = replay as unknown as IncomingMessage;
  ctx.req = req;
  ctx.request.req = req;
  ctx.response.req = req;
}
