/**
 * What both paths of the egress client (got's in egress.ts, node:http's in egressDirect.ts)
 * share: collecting an answer's body under its byte cap, and turning a transport error into an
 * EgressError.
 */
import type { Readable } from 'node:stream';
import { EgressError } from './egressError.js';

/** The EgressError inside whatever got wrapped around it, else a translation of got's error. */
export function translate(err: unknown, host: string, timeoutMs: number): EgressError {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e instanceof EgressError) return e;
  }
  const code = (err as { code?: string } | null)?.code;
  const message = err instanceof Error ? err.message : String(err);
  if (code === 'ETIMEDOUT')
    return new EgressError('timeout', `egress: ${host} did not answer within ${timeoutMs} ms`, {
      host,
      cause: err,
    });
  if (code === 'ERR_ABORTED')
    return new EgressError('aborted', `egress: the call to ${host} was cancelled`, {
      host,
      cause: err,
    });
  return new EgressError('network', `egress: the call to ${host} failed: ${message}`, {
    host,
    cause: err,
  });
}

/**
 * Keeps a body's chunks as they arrive, counting them: the chunk that takes it past `maxBytes`
 * is refused through `tooLarge`. `done` gets them at the end, unless the call has settled.
 */
export function collectBody(
  stream: Readable,
  maxBytes: number,
  settled: () => boolean,
  tooLarge: (what: string) => void,
  done: (chunks: Buffer[], size: number) => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  stream.on('data', (chunk: Buffer) => {
    if (settled()) return;
    size += chunk.length;
    if (size > maxBytes) {
      tooLarge('runs to');
      return;
    }
    chunks.push(chunk);
  });
  stream.on('end', () => {
    if (!settled()) done(chunks, size);
  });
}
