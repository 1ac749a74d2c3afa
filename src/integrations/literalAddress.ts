/**
 * The class of a URL's host when it names an address itself (an IP literal, `localhost`), and
 * whether a policy refuses it: what can be known when a feed or a webhook is added, before any
 * lookup (docs/egress.md). A DNS name is decided when it is resolved, on each connection.
 */
import {
  allowedClass,
  classifyAddress,
  type AddressClass,
  type EgressPolicy,
} from './addresses.js';

/** The refused class of `url`'s literal host under `policy`, or null (allowed, or a DNS name). */
export function refusedLiteral(url: string, policy: EgressPolicy): AddressClass | null {
  let host: string;
  try {
    host = new URL(url.replace(/^webcals?:/i, 'https:')).hostname.toLowerCase();
  } catch {
    return null;
  }
  const cls: AddressClass =
    host === 'localhost' || host.endsWith('.localhost') ? 'loopback' : classifyAddress(host);
  if (cls === 'invalid') return null;
  return allowedClass(policy, cls) ? null : cls;
}

/** The policy that would let an address of class `cls` through. */
export function policyFor(cls: AddressClass): EgressPolicy {
  return cls === 'private' || cls === 'cgnat' ? 'lan' : 'any';
}
