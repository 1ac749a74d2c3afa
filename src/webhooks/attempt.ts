/**
 * One attempt on the wire: POST the signed body through the egress guard under the `webhooks`
 * policy, with the configured timeout, no redirects followed and a small cap on the answer, and
 * say what it came to. Never throws: every failure becomes a readable `error`.
 */
import { EgressError, type Egress, type EgressPolicy } from '../integrations/egress.js';
import { deliveryHeaders } from './sign.js';

/** Receivers answer small bodies; a larger answer is aborted and counts as a failure. */
export const MAX_ANSWER_BYTES = 64 * 1024;

export interface AttemptInput {
  url: string;
  secrets: readonly string[];
  /** The webhook id: the event id, the same on every attempt. */
  id: string;
  body: string;
  at: Date;
  signal?: AbortSignal;
}

/** What every attempt is held to: `config.egress.webhooks` and `config.webhooks.timeoutMs`. */
export interface AttemptLimits {
  policy: EgressPolicy;
  timeoutMs: number;
}

export interface SendResult {
  ok: boolean;
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  retryAfterMs: number | null;
  /**
   * The call was cancelled (shutdown): the receiver may or may not have it; nothing is recorded.
   */
  aborted: boolean;
}

/** Retry-After as seconds or an HTTP date, in ms from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: Date): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return null;
  if (/^\s*\d+\s*$/.test(v)) return Number(v) * 1000;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : Math.max(0, t - now.getTime());
}

export async function sendAttempt(
  egress: Egress,
  limits: AttemptLimits,
  input: AttemptInput,
): Promise<SendResult> {
  const timestamp = Math.floor(input.at.getTime() / 1000);
  const started = performance.now();
  try {
    const res = await egress.request({
      url: input.url,
      method: 'POST',
      body: input.body,
      headers: deliveryHeaders(input.secrets, input.id, timestamp, input.body),
      policy: limits.policy,
      timeoutMs: limits.timeoutMs,
      maxBytes: MAX_ANSWER_BYTES,
      followRedirects: 0,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    const s = res.status;
    const ok = s >= 200 && s < 300;
    return {
      ok,
      responseStatus: s,
      durationMs: res.durationMs,
      aborted: false,
      error: ok ? null : s >= 300 && s < 400 ? `redirect (${s}) not followed` : `HTTP ${s}`,
      retryAfterMs:
        s === 429 || s === 503 ? parseRetryAfter(res.headers['retry-after'], input.at) : null,
    };
  } catch (err) {
    const durationMs = Math.round(performance.now() - started);
    if (err instanceof EgressError) {
      return {
        ok: false,
        responseStatus: null,
        durationMs,
        error: `${err.kind}: ${err.message}`,
        retryAfterMs: null,
        aborted: err.kind === 'aborted',
      };
    }
    return {
      ok: false,
      responseStatus: null,
      durationMs,
      error: `failed: ${(err as Error)?.message ?? String(err)}`,
      retryAfterMs: null,
      aborted: false,
    };
  }
}
