/**
 * SMS: `POST <sms.gatewayUrl>` with JSON `{to, message}` (README.md), through the egress guard
 * under `egress.transports`. A 2xx answer means the gateway took the message.
 */
import type { Egress, EgressPolicy } from './egress.js';
import { TRANSPORT_TIMEOUT_MS } from './push.js';

export interface SmsOptions {
  egress: Egress;
  url: string;
  policy: EgressPolicy;
  timeoutMs?: number;
}

const MAX_ANSWER_BYTES = 64 * 1024;

export function createSms(opts: SmsOptions) {
  return {
    async send(to: string, message: string, signal?: AbortSignal): Promise<void> {
      const res = await opts.egress.request({
        url: opts.url,
        method: 'POST',
        policy: opts.policy,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ to, message }),
        timeoutMs: opts.timeoutMs ?? TRANSPORT_TIMEOUT_MS,
        maxBytes: MAX_ANSWER_BYTES,
        ...(signal ? { signal } : {}),
      });
      if (res.status < 200 || res.status > 299)
        throw new Error(`the SMS gateway answered ${res.status}`);
    },
  };
}
