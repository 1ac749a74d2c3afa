/**
 * The egress client's path for a call with no redirects to follow (webhook deliveries,
 * transports): one request on node:http through the guarded keep-alive agents, under the same
 * rules as got's path in egress.ts (docs/egress.md).
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import { EgressError } from './egressError.js';
import type { EgressRequest, EgressResponse } from './egressTypes.js';
import { collectBody, translate } from './egressBody.js';

/** Encodings an answer may come in; the same list got asks for. */
const ACCEPT_ENCODING = 'gzip, deflate, br';

function decoder(
  encoding: string | undefined,
): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
    case 'deflate':
      return zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
    case 'br':
      return zlib.createBrotliDecompress();
    case undefined:
    default:
      return null;
  }
}

/**
 * One request, no redirects, on node:http with the guarded keep-alive agent. The same rules as
 * the got path: one timer over the whole call, the byte cap counted after decompression (a
 * declared length past it refused at the headers), a 3xx returned as it is, errors as
 * EgressError — without got's stream machinery, which costs several times the CPU of the
 * request itself on a small POST.
 */
export function direct(a: {
  req: EgressRequest;
  url: URL;
  method: string;
  body: string | Buffer | undefined;
  agents: { http: http.Agent; https: https.Agent };
  userAgent: string;
  started: number;
}): Promise<EgressResponse> {
  const { req, url, method, body, started } = a;
  const host = url.hostname;
  return new Promise<EgressResponse>((resolve, reject) => {
    let settled = false;
    let client: http.ClientRequest | undefined;
    let stream: Readable | undefined;
    const cleanup = () => {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
    };
    const fail = (e: EgressError) => {
      if (settled) return;
      settled = true;
      cleanup();
      client?.destroy();
      stream?.destroy();
      reject(e);
    };
    const onAbort = () =>
      fail(new EgressError('aborted', `egress: the call to ${host} was cancelled`, { host }));
    const timer = setTimeout(
      () =>
        fail(
          new EgressError('timeout', `egress: ${host} did not answer within ${req.timeoutMs} ms`, {
            host,
          }),
        ),
      req.timeoutMs,
    );
    if (req.signal?.aborted) {
      onAbort();
      return;
    }
    req.signal?.addEventListener('abort', onAbort, { once: true });
    const tooLarge = (what: string) =>
      fail(
        new EgressError(
          'too_large',
          `egress: the answer from ${host} ${what} more than ${req.maxBytes} bytes`,
          { host },
        ),
      );

    const headers: Record<string, string> = {
      'user-agent': a.userAgent,
      'accept-encoding': ACCEPT_ENCODING,
    };
    for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = v;
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const https_ = url.protocol === 'https:';
    try {
      client = (https_ ? https : http).request({
        hostname: host.replace(/^\[(.*)\]$/, '$1'),
        port: url.port || (https_ ? 443 : 80),
        path: url.pathname + url.search,
        method,
        headers,
        agent: https_ ? a.agents.https : a.agents.http,
      });
    } catch (err) {
      fail(translate(err, host, req.timeoutMs));
      return;
    }
    client.on('error', (err) => fail(translate(err, host, req.timeoutMs)));
    client.on('response', (res) => {
      if (settled) {
        res.resume();
        return;
      }
      const hasBody = method !== 'HEAD' && res.statusCode !== 204 && res.statusCode !== 304;
      const decode = hasBody ? decoder(res.headers['content-encoding']) : null;
      const resHeaders: Record<string, string | string[] | undefined> = { ...res.headers };
      if (decode) {
        // The headers describe the body as returned: decompressed, of the length counted below.
        delete resHeaders['content-encoding'];
        delete resHeaders['content-length'];
      } else if (hasBody) {
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > req.maxBytes) {
          tooLarge('declares');
          return;
        }
      }
      const address = res.socket?.remoteAddress;
      stream = decode ? res.pipe(decode) : res;
      if (decode) {
        decode.on('error', (err) =>
          fail(
            new EgressError(
              'network',
              `egress: the answer from ${host} could not be decoded: ${err.message}`,
              { host, cause: err },
            ),
          ),
        );
        res.on('error', (err) => fail(translate(err, host, req.timeoutMs)));
      }
      stream.on('error', (err) => fail(translate(err, host, req.timeoutMs)));
      collectBody(
        stream,
        req.maxBytes,
        () => settled,
        tooLarge,
        (chunks, size) => {
          settled = true;
          cleanup();
          resolve({
            status: res.statusCode ?? 0,
            headers: resHeaders,
            body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size),
            url: url.toString(),
            redirects: [],
            address,
            durationMs: Math.round(performance.now() - started),
          });
        },
      );
      // A body the server cuts off mid-way ends the response with 'aborted' (then 'close').
      res.on('aborted', () =>
        fail(new EgressError('network', `egress: the answer from ${host} was cut off`, { host })),
      );
    });
    client.end(body);
  });
}
