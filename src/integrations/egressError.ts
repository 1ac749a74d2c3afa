/** The one error the egress guard throws; callers branch on `kind`, never on a library's error. */
import type { AddressClass } from './addresses.js';

export type EgressErrorKind =
  | 'bad_url' // not an absolute http(s) URL
  | 'refused_address' // the address a hop would connect to is outside the policy
  | 'redirect_refused' // more hops than allowed, or a hop to a scheme other than http(s)
  | 'timeout' // the whole call (lookup, connect, answer and body) ran past timeoutMs
  | 'too_large' // the decompressed body went past maxBytes
  | 'aborted' // the caller's signal fired
  | 'network'; // anything else on the way: DNS failure, reset, TLS, bad encoding

export interface EgressErrorDetails {
  /** Host of the hop that failed (never the full URL: query strings may hold secrets). */
  host?: string | undefined;
  /** For `refused_address`: the address and its class. */
  address?: string | undefined;
  addressClass?: AddressClass | undefined;
  cause?: unknown;
}

export class EgressError extends Error {
  override readonly name = 'EgressError';
  /** Also set as `code` so that it survives got wrapping it (got copies the cause's code). */
  readonly code: string;
  readonly host: string | undefined;
  readonly address: string | undefined;
  readonly addressClass: AddressClass | undefined;

  constructor(
    readonly kind: EgressErrorKind,
    message: string,
    details: EgressErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = `EEGRESS_${kind.toUpperCase()}`;
    this.host = details.host;
    this.address = details.address;
    this.addressClass = details.addressClass;
  }
}
