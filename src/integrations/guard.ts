/**
 * The connect-time check: HTTP(S) agents whose sockets can only open to an address the policy
 * allows. The check sits where the address is chosen, not before the request:
 * - a host name is resolved by the lookup the socket itself uses, and only answers that pass
 *   are handed to the connect, so a DNS answer that changes between a check and the connect
 *   (rebinding) has no gap to use: there is one lookup and it is the checked one;
 * - an IP literal skips DNS in `net.connect`, so `createConnection` checks it itself;
 * - got opens every redirect hop through the same agents, so every hop is checked.
 */
import * as dns from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import type { Duplex } from 'node:stream';
import { allowedClass, canonicalAddress, classifyAddress, type EgressPolicy } from './addresses.js';
import { EgressError } from './egressError.js';

import type { TrustedEndpoint } from './egressTypes.js';

export type { TrustedEndpoint };

export interface GuardOptions {
  policy: EgressPolicy;
  /** Resolver the sockets use; `dns.lookup` (the system resolver) unless a test injects one. */
  lookup?: net.LookupFunction | undefined;
  trusted?: readonly TrustedEndpoint[] | undefined;
}

interface Verdict {
  ok: boolean;
  address: string;
  cls: ReturnType<typeof classifyAddress>;
}

function makeJudge(opts: GuardOptions): (address: string, port: number) => Verdict {
  const trusted = new Set(
    (opts.trusted ?? []).map((t) => `${canonicalAddress(t.address) ?? t.address}|${t.port}`),
  );
  return (address, port) => {
    const cls = classifyAddress(address);
    const canon = canonicalAddress(address) ?? address;
    const ok = allowedClass(opts.policy, cls) || trusted.has(`${canon}|${port}`);
    return { ok, address: canon, cls };
  };
}

function refusal(v: Verdict, host: string, policy: EgressPolicy): EgressError {
  return new EgressError(
    'refused_address',
    `egress refused: ${host} is at ${v.address} (${v.cls}), which the "${policy}" policy does not allow`,
    { host, address: v.address, addressClass: v.cls },
  );
}

type AllCallback = (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void;

/**
 * A lookup for `net.connect` that asks the real resolver for every answer, drops those the policy
 * refuses and fails with `refused_address` when none is left. It answers in the shape asked for
 * (`all` or a single address), so it works with and without happy-eyeballs.
 */
export function guardedLookup(opts: GuardOptions, port: number): net.LookupFunction {
  const base = opts.lookup ?? dns.lookup;
  const judge = makeJudge(opts);
  return (hostname, options, callback) => {
    const done: AllCallback = (err, answers) => {
      if (err) {
        callback(err, '');
        return;
      }
      const verdicts = answers.map((a) => ({ a, v: judge(a.address, port) }));
      const kept = verdicts.filter((x) => x.v.ok).map((x) => x.a);
      if (kept.length === 0) {
        const first = verdicts[0];
        const e = first
          ? refusal(first.v, hostname, opts.policy)
          : new EgressError('network', `egress: ${hostname} has no address`, { host: hostname });
        callback(e, '');
        return;
      }
      if (options.all) callback(null, kept);
      else callback(null, kept[0].address, kept[0].family);
    };
    base(hostname, { ...options, all: true }, (err, addresses, family) => {
      // A resolver may ignore `all` and answer with one address; accept both shapes.
      const list =
        typeof addresses === 'string'
          ? addresses
            ? [{ address: addresses, family: family ?? net.isIP(addresses) }]
            : []
          : addresses;
      done(err, list);
    });
  };
}

type ConnectionCallback = (err: Error | null, stream: Duplex) => void;

/** Shared body of both agents' `createConnection`. */
function guardConnection(
  opts: GuardOptions,
  options: http.ClientRequestArgs,
  callback: ConnectionCallback | undefined,
  open: (o: http.ClientRequestArgs) => Duplex | null | undefined,
): Duplex | null | undefined {
  const fail = (e: EgressError): undefined => {
    // http.Agent accepts the error through the callback and then ignores a missing socket.
    if (callback) callback(e, undefined as unknown as Duplex);
    else throw e;
    return undefined;
  };
  const host = String(options.host ?? options.hostname ?? 'localhost').replace(/^\[(.*)\]$/, '$1');
  const port = Number(options.port ?? 0);
  if (options.socketPath) {
    return fail(
      new EgressError(
        'refused_address',
        'egress refused: UNIX sockets are not an outbound destination',
        { host },
      ),
    );
  }
  if (net.isIP(host)) {
    const v = makeJudge(opts)(host, port);
    if (!v.ok) return fail(refusal(v, host, opts.policy));
    return open(options);
  }
  return open({ ...options, lookup: guardedLookup(opts, port) });
}

export class GuardedHttpAgent extends http.Agent {
  constructor(
    private readonly guard: GuardOptions,
    agentOptions?: http.AgentOptions,
  ) {
    super(agentOptions);
  }
  override createConnection(
    options: http.ClientRequestArgs,
    callback?: ConnectionCallback,
  ): Duplex | null | undefined {
    return guardConnection(this.guard, options, callback, (o) =>
      super.createConnection(o, callback),
    );
  }
}

export class GuardedHttpsAgent extends https.Agent {
  constructor(
    private readonly guard: GuardOptions,
    agentOptions?: https.AgentOptions,
  ) {
    super(agentOptions);
  }
  override createConnection(
    options: https.RequestOptions,
    callback?: ConnectionCallback,
  ): Duplex | null | undefined {
    return guardConnection(this.guard, options, callback, (o) =>
      super.createConnection(o, callback),
    );
  }
}
