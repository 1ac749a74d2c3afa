import { expect } from 'chai';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { guardedLookup, type GuardOptions } from '../../src/integrations/guard.js';
import { EgressError } from '../../src/integrations/egressError.js';

// The connect-time lookup, driven with a resolver that answers from a table. Nothing here opens
// a socket: the answers are only checked and handed back, so any address may appear.

function resolver(
  answers: string[] | Error,
  calls: Array<{ host: string; all: boolean | undefined }> = [],
): LookupFunction {
  return (hostname, options, callback) => {
    calls.push({ host: hostname, all: options.all });
    if (answers instanceof Error) {
      callback(answers, '');
      return;
    }
    const list: LookupAddress[] = answers.map((a) => ({
      address: a,
      family: a.includes(':') ? 6 : 4,
    }));
    if (options.all) callback(null, list);
    else callback(null, list[0].address, list[0].family);
  };
}

/** Runs the guarded lookup and returns what a socket would receive. */
function run(
  opts: GuardOptions,
  all: boolean,
  port = 443,
  host = 'service.example',
): Promise<{
  err: NodeJS.ErrnoException | null;
  address: string | LookupAddress[];
  family: number | undefined;
}> {
  return new Promise((resolve) => {
    guardedLookup(opts, port)(host, { all }, (err, address, family) =>
      resolve({ err, address, family }),
    );
  });
}

describe('egress connect-time lookup', () => {
  it('hands a public answer to the socket under public', async () => {
    const r = await run({ policy: 'public', lookup: resolver(['8.8.8.8']) }, false);
    expect(r.err).to.equal(null);
    expect(r.address).to.equal('8.8.8.8');
    expect(r.family).to.equal(4);
  });

  it('refuses a name that resolves to loopback under public, naming the address and its class', async () => {
    const r = await run({ policy: 'public', lookup: resolver(['127.0.0.1']) }, false);
    expect(r.err).to.be.instanceOf(EgressError);
    const e = r.err as unknown as EgressError;
    expect(e.kind).to.equal('refused_address');
    expect(e.address).to.equal('127.0.0.1');
    expect(e.addressClass).to.equal('loopback');
    expect(e.host).to.equal('service.example');
    expect(e.message).to.contain('"public" policy');
  });

  for (const [policy, answer, cls] of [
    ['public', '10.0.0.7', 'private'],
    ['public', '100.64.1.1', 'cgnat'],
    ['public', 'fd00::5', 'private'],
    ['lan', '169.254.169.254', 'metadata'],
    ['lan', 'fd00:ec2::254', 'metadata'],
    ['lan', '::ffff:169.254.169.254', 'metadata'],
    ['lan', 'fe80::1%eth0', 'linkLocal'],
    ['lan', '::1', 'loopback'],
    ['lan', '::ffff:127.0.0.1', 'loopback'],
    ['lan', '64:ff9b::7f00:1', 'loopback'],
    ['lan', '2002:7f00:1::1', 'loopback'],
    ['lan', '0.0.0.0', 'unspecified'],
    ['lan', '224.0.0.251', 'multicast'],
  ] as const) {
    it(`refuses an answer of ${answer} (${cls}) under ${policy}`, async () => {
      const r = await run({ policy, lookup: resolver([answer]) }, true);
      expect((r.err as unknown as EgressError)?.kind, JSON.stringify(r.address)).to.equal(
        'refused_address',
      );
      expect((r.err as unknown as EgressError).addressClass).to.equal(cls);
    });
  }

  it('lets the LAN through under lan, including an IPv4-mapped LAN address', async () => {
    const r = await run(
      { policy: 'lan', lookup: resolver(['192.168.1.20', '::ffff:10.0.0.9']) },
      true,
    );
    expect(r.err).to.equal(null);
    expect(r.address).to.deep.equal([
      { address: '192.168.1.20', family: 4 },
      { address: '::ffff:10.0.0.9', family: 6 },
    ]);
  });

  it('passes only the allowed answers on when a name has several, keeping their order', async () => {
    const r = await run(
      { policy: 'public', lookup: resolver(['127.0.0.1', '2606:4700::1', '10.0.0.1', '8.8.8.8']) },
      true,
    );
    expect(r.err).to.equal(null);
    expect(r.address).to.deep.equal([
      { address: '2606:4700::1', family: 6 },
      { address: '8.8.8.8', family: 4 },
    ]);
  });

  it('answers a single-address lookup with the first allowed answer', async () => {
    const r = await run(
      { policy: 'public', lookup: resolver(['169.254.169.254', '8.8.4.4']) },
      false,
    );
    expect(r.err).to.equal(null);
    expect(r.address).to.equal('8.8.4.4');
    expect(r.family).to.equal(4);
  });

  it('asks the resolver for every answer even when the socket wants one, so none is skipped unchecked', async () => {
    const calls: Array<{ host: string; all: boolean | undefined }> = [];
    await run({ policy: 'public', lookup: resolver(['8.8.8.8'], calls) }, false, 443, 'a.example');
    expect(calls).to.deep.equal([{ host: 'a.example', all: true }]);
  });

  it('accepts a resolver that ignores `all` and answers with one address', async () => {
    const single: LookupFunction = (_h, _o, cb) => cb(null, '127.0.0.1', 4);
    const refused = await run({ policy: 'public', lookup: single }, true);
    expect((refused.err as unknown as EgressError).kind).to.equal('refused_address');
    const passed = await run({ policy: 'any', lookup: single }, true);
    expect(passed.address).to.deep.equal([{ address: '127.0.0.1', family: 4 }]);
  });

  it('lets everything through under any', async () => {
    const r = await run(
      { policy: 'any', lookup: resolver(['127.0.0.1', '169.254.169.254']) },
      true,
    );
    expect(r.err).to.equal(null);
    expect(r.address).to.have.length(2);
  });

  it('passes a resolver failure on unchanged', async () => {
    const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example'), {
      code: 'ENOTFOUND',
    });
    const r = await run({ policy: 'public', lookup: resolver(notFound) }, true);
    expect(r.err).to.equal(notFound);
  });

  it('treats an empty answer as a network failure, not a refusal', async () => {
    const r = await run({ policy: 'public', lookup: resolver([]) }, true);
    expect((r.err as unknown as EgressError).kind).to.equal('network');
  });

  it('refuses an answer that is not an address at all, even under any', async () => {
    const r = await run({ policy: 'any', lookup: resolver(['not-an-ip']) }, true);
    expect((r.err as unknown as EgressError).addressClass).to.equal('invalid');
  });

  it('lets a trusted address through only on its own port', async () => {
    const opts: GuardOptions = {
      policy: 'lan',
      lookup: resolver(['::ffff:127.0.0.1']),
      trusted: [{ address: '127.0.0.1', port: 8123 }],
    };
    const onPort = await run(opts, true, 8123);
    expect(onPort.err).to.equal(null);
    const otherPort = await run(opts, true, 8124);
    expect((otherPort.err as unknown as EgressError).kind).to.equal('refused_address');
  });
});
