/**
 * Reading a request's body once and handing the same bytes to whoever reads it next: what a
 * node does before it signs and forwards a request, and what the owner does before it checks
 * that signature and serves the request (./proxy.ts).
 */
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type Koa from 'koa';
import { Invalid } from '../domain/shared/errors.js';
import { HttpError } from '../http/errors.js';

function tooLarge(limit: number): HttpError {
  return new HttpError(
    413,
    'payload_too_large',
    `The request body is larger than the limit of ${limit} bytes`,
  );
}

/**
 * The request body exactly as sent (any content type, still compressed when Content-Encoding
 * says so), at most `limitBytes`; more → 413 before anything is forwarded. Like the JSON body
 * reader, a refused stream is left unread, not destroyed, so the answer reaches the client.
 */
export function bufferBody(ctx: Koa.Context, limitBytes: number): Promise<Buffer> {
  const req = ctx.req;
  if ((ctx.request.length ?? 0) > limitBytes) return Promise.reject(tooLarge(limitBytes));
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (err: Error | null) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onCut);
      req.off('close', onClose);
      if (err) reject(err);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) return settle(tooLarge(limitBytes));
      chunks.push(chunk);
    };
    const onEnd = () => settle(null);
    const onCut = () =>
      settle(
        new Invalid('The request body ended before it was complete', [
          { path: [], message: 'was cut off' },
        ]),
      );
    const onClose = () => {
      if (!req.complete) onCut();
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onCut);
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
 * Makes the body read by `bufferBody` readable once more. The request's stream is spent, so
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
