/**
 * Push: an ntfy publish (README.md) — `POST <push.ntfyUrl>` with the text as the body and the
 * title in the `Title` header, through the egress guard under `egress.transports`.
 *
 * HTTP header values are Latin-1 at best and Node refuses anything outside it, so a title with
 * other characters is sent as RFC 2047 encoded-words (`=?UTF-8?B?…?=`), which ntfy decodes
 * (since 2.4). An ASCII title goes as it is.
 */
import type { Egress, EgressPolicy } from './egress.js';

export interface PushMessage {
  title: string;
  body: string;
}

export interface PushOptions {
  egress: Egress;
  url: string;
  policy: EgressPolicy;
  timeoutMs?: number;
}

export const TRANSPORT_TIMEOUT_MS = 10_000;
/** An ntfy answer is a small JSON message; anything larger is not one. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** RFC 2047 B-encoding of a header value, split into words of at most 75 characters. */
export function encodeHeaderValue(value: string): string {
  // Control characters (a newline would end the header) become spaces.
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, ' ');
  if (/^[\x20-\x7e]*$/.test(clean)) return clean;
  const words: string[] = [];
  let chunk = '';
  // 75 − len("=?UTF-8?B?" + "?=") = 63 base64 characters = 45 bytes of UTF-8 per word at most.
  for (const ch of clean) {
    if (Buffer.byteLength(chunk + ch, 'utf8') > 45) {
      words.push(chunk);
      chunk = '';
    }
    chunk += ch;
  }
  if (chunk) words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w, 'utf8').toString('base64')}?=`).join(' ');
}

export function createPush(opts: PushOptions) {
  return {
    /**
     * Publishes one message; resolves when ntfy accepted it (2xx), rejects with the reason
     * otherwise.
     */
    async publish(msg: PushMessage, signal?: AbortSignal): Promise<void> {
      const res = await opts.egress.request({
        url: opts.url,
        method: 'POST',
        policy: opts.policy,
        headers: {
          'content-type': 'text/plain; charset=utf-8',
          title: encodeHeaderValue(msg.title),
        },
        body: msg.body,
        timeoutMs: opts.timeoutMs ?? TRANSPORT_TIMEOUT_MS,
        maxBytes: MAX_ANSWER_BYTES,
        ...(signal ? { signal } : {}),
      });
      if (res.status < 200 || res.status > 299) throw new Error(`ntfy answered ${res.status}`);
    },
  };
}
