import { expect } from 'chai';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import {
  createEgress,
  EgressError,
  type EgressPolicy,
  type EgressResponse,
} from '../../src/integrations/egress.js';
import { startLocalService, type LocalService } from './localService.js';

// The policy check at connect time, against a real server on 127.0.0.1 that counts connections.
// Only loopback addresses ever appear where a socket could connect: a refusal is proven by the
// error and by the server seeing no connection; the other address classes are covered on the
// classifier and the lookup (addresses.unit.test.ts, guard.unit.test.ts).

async function failure(p: Promise<EgressResponse>): Promise<EgressError> {
  try {
    await p;
  } catch (e) {
    expect(e, String(e)).to.be.instanceOf(EgressError);
    return e as EgressError;
  }
  throw new Error('the call succeeded');
}

/** A resolver that answers from a script, one entry per call, and records each call. */
function scriptedResolver(script: Array<string[]>): { lookup: LookupFunction; calls: string[] } {
  const calls: string[] = [];
  const lookup: LookupFunction = (hostname, options, callback) => {
    const answer = script[calls.length];
    calls.push(hostname);
    if (!answer) {
      callback(
        Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }),
        '',
      );
      return;
    }
    const list: LookupAddress[] = answer.map((a) => ({
      address: a,
      family: a.includes(':') ? 6 : 4,
    }));
    if (options.all) callback(null, list);
    else callback(null, list[0].address, list[0].family);
  };
  return { lookup, calls };
}

describe('egress policies at connect time', () => {
  let s: LocalService;
  beforeEach(async () => {
    s = await startLocalService((req, res) => res.end(`hello ${req.url}`));
  });
  afterEach(() => s.close());

  const request = (
    egress: ReturnType<typeof createEgress>,
    url: string,
    policy: EgressPolicy,
    followRedirects = 0,
  ) => egress.request({ url, policy, timeoutMs: 2000, maxBytes: 1024, followRedirects });

  describe('IP literals in the URL (no DNS involved)', () => {
    const egress = createEgress();
    const literals: Array<[string, string]> = [
      ['127.0.0.1', 'loopback'],
      ['127.1', 'loopback'],
      ['2130706433', 'loopback'],
      ['0x7f.1', 'loopback'],
      ['0177.0.0.1', 'loopback'],
      ['[::ffff:127.0.0.1]', 'loopback'],
      ['[::1]', 'loopback'],
      ['0.0.0.0', 'unspecified'],
      ['[::]', 'unspecified'],
    ];
    for (const policy of ['public', 'lan'] as const) {
      for (const [host, cls] of literals) {
        it(`refuses http://${host}:<port>/ under ${policy} before connecting`, async () => {
          const e = await failure(request(egress, `http://${host}:${s.port}/`, policy));
          expect(e.kind).to.equal('refused_address');
          expect(e.addressClass).to.equal(cls);
          expect(e.message).to.contain(`"${policy}" policy`);
          expect(s.connections).to.equal(0);
        });
      }
    }

    it('guards https the same way: refuses https://127.0.0.1 and https://localhost under public', async () => {
      for (const url of [
        `https://127.0.0.1:${s.port}/`,
        `https://localhost:${s.port}/`,
        `https://[::ffff:7f00:1]:${s.port}/`,
      ]) {
        const e = await failure(request(egress, url, 'public'));
        expect(e.kind, url).to.equal('refused_address');
      }
      expect(s.connections).to.equal(0);
    });

    for (const host of ['127.0.0.1', '127.1', '2130706433', '0x7f.1']) {
      it(`connects to http://${host}:<port>/ under any`, async () => {
        const r = await request(egress, `http://${host}:${s.port}/x`, 'any');
        expect(r.body.toString()).to.equal('hello /x');
        expect(r.address).to.equal('127.0.0.1');
        expect(s.connections).to.equal(1);
      });
    }
  });

  describe('host names (checked on the resolver answer the socket uses)', () => {
    it('refuses localhost through the system resolver under public and lan', async () => {
      const egress = createEgress();
      for (const policy of ['public', 'lan'] as const) {
        const e = await failure(request(egress, `http://localhost:${s.port}/`, policy));
        expect(e.kind).to.equal('refused_address');
        expect(e.addressClass).to.equal('loopback');
        expect(e.host).to.equal('localhost');
      }
      expect(s.connections).to.equal(0);
    });

    it('refuses a name whose every answer is a loopback form', async () => {
      const { lookup } = scriptedResolver([['127.0.0.1', '::1', '::ffff:127.0.0.1', '0.0.0.0']]);
      const e = await failure(
        request(createEgress({ lookup }), `http://multi.test:${s.port}/`, 'public'),
      );
      expect(e.kind).to.equal('refused_address');
      expect(s.connections).to.equal(0);
    });

    // A rebinding attack answers a check with a harmless address and the connect with an inner
    // one. This guard resolves once, in the socket's own lookup, and checks that answer. The
    // resolver below answers the first call only and fails every later one: a guard that looked
    // the name up to check it and again to connect would fail with a DNS error here instead of
    // refusing, and under `any` it would never connect.
    it('checks the one answer the connect uses: refused under public, connected under any', async () => {
      const refused = scriptedResolver([['127.0.0.1']]);
      const e = await failure(
        request(
          createEgress({ lookup: refused.lookup }),
          `http://rebind.test:${s.port}/`,
          'public',
        ),
      );
      expect(e.kind).to.equal('refused_address');
      expect(e.address).to.equal('127.0.0.1');
      expect(refused.calls).to.deep.equal(['rebind.test']);
      expect(s.connections).to.equal(0);

      const allowed = scriptedResolver([['127.0.0.1']]);
      const r = await request(
        createEgress({ lookup: allowed.lookup }),
        `http://rebind.test:${s.port}/in`,
        'any',
      );
      expect(r.body.toString()).to.equal('hello /in');
      expect(r.address).to.equal('127.0.0.1');
      expect(allowed.calls).to.deep.equal(['rebind.test']);
      expect(s.connections).to.equal(1);
      expect(s.requests[0].headers.host).to.equal(`rebind.test:${s.port}`);
    });

    it('resolves a name again for each new connection, and checks each answer', async () => {
      // Two calls, two connects: the second answer differs and is the one checked.
      const { lookup, calls } = scriptedResolver([['127.0.0.1'], ['::ffff:127.0.0.1']]);
      const egress = createEgress({ lookup });
      const first = await request(egress, `http://flip.test:${s.port}/a`, 'any');
      expect(first.address).to.equal('127.0.0.1');
      const e = await failure(request(egress, `http://flip.test:${s.port}/b`, 'lan'));
      expect(e.address).to.equal('127.0.0.1'); // ::ffff:127.0.0.1, shown canonically
      expect(e.addressClass).to.equal('loopback');
      expect(calls).to.deep.equal(['flip.test', 'flip.test']);
      expect(s.connections).to.equal(1);
    });
  });

  describe('redirect hops', () => {
    it('looks up and checks every hop of a redirect chain', async () => {
      const { lookup, calls } = scriptedResolver([['127.0.0.1'], ['127.0.0.1']]);
      const target = await startLocalService((_req, res) => res.end('arrived'));
      try {
        const start = await startLocalService((_req, res) => {
          res.writeHead(302, { location: `http://hop-two.test:${target.port}/end` });
          res.end();
        });
        try {
          const r = await request(
            createEgress({ lookup }),
            `http://hop-one.test:${start.port}/`,
            'any',
            2,
          );
          expect(r.body.toString()).to.equal('arrived');
          expect(calls).to.deep.equal(['hop-one.test', 'hop-two.test']);
        } finally {
          await start.close();
        }
      } finally {
        await target.close();
      }
    });

    // Under `lan` nothing on this machine may be reached, so the first hop's server is trusted
    // by address and port; the hop it redirects to is on another port and gets no such pass.
    for (const [name, location] of [
      ['an IP literal', (port: number) => `http://127.0.0.1:${port}/inner`],
      ['an IPv4-mapped literal', (port: number) => `http://[::ffff:127.0.0.1]:${port}/inner`],
      ['the unspecified address', (port: number) => `http://0.0.0.0:${port}/inner`],
      ['a name resolving to loopback', (port: number) => `http://inner.test:${port}/inner`],
    ] as const) {
      it(`refuses a redirect to loopback given as ${name} under lan, before connecting`, async () => {
        const { lookup } = scriptedResolver([['127.0.0.1']]);
        const start = await startLocalService((_req, res) => {
          res.writeHead(302, { location: location(s.port) });
          res.end();
        });
        try {
          const egress = createEgress({
            lookup,
            trusted: [{ address: '127.0.0.1', port: start.port }],
          });
          const e = await failure(request(egress, `${start.origin}/`, 'lan', 3));
          expect(e.kind).to.equal('refused_address');
          expect(start.requests).to.have.length(1); // the trusted first hop was reached…
          expect(s.connections).to.equal(0); // …the redirect target was not
        } finally {
          await start.close();
        }
      });
    }

    it('follows a redirect that stays on the trusted address and port', async () => {
      const start = await startLocalService((req, res) => {
        if (req.url === '/') {
          res.writeHead(307, { location: '/next' });
          res.end();
        } else res.end('same place');
      });
      try {
        const egress = createEgress({ trusted: [{ address: '127.0.0.1', port: start.port }] });
        const r = await request(egress, `${start.origin}/`, 'lan', 1);
        expect(r.body.toString()).to.equal('same place');
        expect(r.redirects).to.deep.equal([`${start.origin}/next`]);
      } finally {
        await start.close();
      }
    });
  });
});
