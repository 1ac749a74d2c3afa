import { expect } from 'chai';
import {
  allowed,
  canonicalAddress,
  classifyAddress,
  type AddressClass,
  type EgressPolicy,
} from '../../src/integrations/addresses.js';

// Pure classification: none of these addresses is ever contacted.
// Each row: the address as a resolver, a URL or a socket could show it, its class, and whether
// `public`, `lan` and `any` let a connection go there.
type Row = [address: string, cls: AddressClass, pub: boolean, lan: boolean, any: boolean];

const ROWS: Row[] = [
  // IPv4, public
  ['8.8.8.8', 'public', true, true, true],
  ['1.1.1.1', 'public', true, true, true],
  ['11.0.0.1', 'public', true, true, true], // just past 10/8
  ['172.15.255.255', 'public', true, true, true], // just before 172.16/12
  ['172.32.0.0', 'public', true, true, true], // just past 172.16/12
  ['100.63.255.255', 'public', true, true, true], // just before 100.64/10
  ['100.128.0.0', 'public', true, true, true], // just past 100.64/10
  // loopback in every IPv4 spelling
  ['127.0.0.1', 'loopback', false, false, true],
  ['127.1', 'loopback', false, false, true],
  ['2130706433', 'loopback', false, false, true],
  ['0x7f.1', 'loopback', false, false, true],
  ['0x7f000001', 'loopback', false, false, true],
  ['0177.0.0.1', 'loopback', false, false, true],
  ['127.255.255.254', 'loopback', false, false, true],
  // "this network": Linux connects 0.0.0.0 to the machine itself
  ['0.0.0.0', 'unspecified', false, false, true],
  ['0', 'unspecified', false, false, true],
  ['0.1.2.3', 'unspecified', false, false, true],
  // private ranges: the LAN
  ['10.0.0.1', 'private', false, true, true],
  ['172.16.0.1', 'private', false, true, true],
  ['172.31.255.255', 'private', false, true, true],
  ['192.168.1.10', 'private', false, true, true],
  // CGNAT / overlay VPN space
  ['100.64.0.1', 'cgnat', false, true, true],
  ['100.127.255.255', 'cgnat', false, true, true],
  // metadata endpoints and link-local
  ['169.254.169.254', 'metadata', false, false, true],
  ['100.100.100.200', 'metadata', false, false, true],
  ['169.254.170.2', 'linkLocal', false, false, true],
  ['169.254.0.1', 'linkLocal', false, false, true],
  // multicast, broadcast, reserved
  ['224.0.0.1', 'multicast', false, false, true],
  ['239.255.255.250', 'multicast', false, false, true],
  ['255.255.255.255', 'reserved', false, false, true],
  ['240.0.0.1', 'reserved', false, false, true],
  ['192.0.0.8', 'reserved', false, false, true],
  ['192.0.2.1', 'reserved', false, false, true],
  ['198.51.100.7', 'reserved', false, false, true],
  ['203.0.113.9', 'reserved', false, false, true],
  ['198.18.0.1', 'reserved', false, false, true],
  // IPv6, public
  ['2606:4700::1', 'public', true, true, true],
  ['2001:4860:4860::8888', 'public', true, true, true],
  ['[2606:4700::1]', 'public', true, true, true],
  // IPv6 loopback, unspecified, ULA, link-local, multicast, metadata
  ['::1', 'loopback', false, false, true],
  ['[::1]', 'loopback', false, false, true],
  ['0:0:0:0:0:0:0:1', 'loopback', false, false, true],
  ['::', 'unspecified', false, false, true],
  ['fc00::1', 'private', false, true, true],
  ['fd12:3456:789a::1', 'private', false, true, true],
  ['fe80::1', 'linkLocal', false, false, true],
  ['fe80::1%eth0', 'linkLocal', false, false, true],
  ['ff02::1', 'multicast', false, false, true],
  ['fd00:ec2::254', 'metadata', false, false, true],
  // IPv4-mapped: the kernel connects over IPv4, so the IPv4 decides
  ['::ffff:127.0.0.1', 'loopback', false, false, true],
  ['[::ffff:127.0.0.1]', 'loopback', false, false, true],
  ['::ffff:7f00:1', 'loopback', false, false, true],
  ['::ffff:0.0.0.0', 'unspecified', false, false, true],
  ['::ffff:10.0.0.1', 'private', false, true, true],
  ['::ffff:169.254.169.254', 'metadata', false, false, true],
  ['::ffff:8.8.8.8', 'public', true, true, true],
  // IPv4-translated (SIIT)
  ['::ffff:0:7f00:1', 'loopback', false, false, true],
  // NAT64 well-known prefix carries the IPv4 in its last 32 bits
  ['64:ff9b::7f00:1', 'loopback', false, false, true],
  ['64:ff9b::127.0.0.1', 'loopback', false, false, true],
  ['64:ff9b::a9fe:a9fe', 'metadata', false, false, true],
  ['64:ff9b::10.1.2.3', 'private', false, true, true],
  ['64:ff9b::8.8.8.8', 'public', true, true, true],
  ['64:ff9b:1::a00:1', 'reserved', false, false, true], // local-use NAT64: position unknown
  // 6to4 carries the IPv4 in bits 16–47
  ['2002:7f00:1::1', 'loopback', false, false, true],
  ['2002:a9fe:a9fe::1', 'metadata', false, false, true],
  ['2002:c0a8:101::1', 'private', false, true, true],
  ['2002:6440:1::', 'cgnat', false, true, true],
  ['2002:808:808::1', 'public', true, true, true],
  // other special IPv6
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved', false, false, true], // Teredo
  ['2001:db8::1', 'reserved', false, false, true],
  ['3fff::1', 'reserved', false, false, true],
  ['::7f00:1', 'reserved', false, false, true], // deprecated IPv4-compatible
  ['100::1', 'reserved', false, false, true], // discard prefix
  ['fec0::1', 'reserved', false, false, true], // deprecated site-local
  ['4000::1', 'reserved', false, false, true], // unallocated
  // not addresses at all: never allowed, not even by `any`
  ['localhost', 'invalid', false, false, false],
  ['example.com', 'invalid', false, false, false],
  ['', 'invalid', false, false, false],
  ['1.2.3.4.5', 'invalid', false, false, false],
  ['::g', 'invalid', false, false, false],
  ['256.0.0.1', 'invalid', false, false, false],
];

describe('egress address classifier', () => {
  const policies: EgressPolicy[] = ['public', 'lan', 'any'];
  for (const [address, cls, ...verdicts] of ROWS) {
    it(`classifies ${JSON.stringify(address)} as ${cls} (public ${verdicts[0]}, lan ${verdicts[1]}, any ${verdicts[2]})`, () => {
      expect(classifyAddress(address), 'class').to.equal(cls);
      policies.forEach((p, i) => expect(allowed(p, address), p).to.equal(verdicts[i]));
    });
  }

  it('keeps loopback, link-local and metadata out of lan and public for every form in the table', () => {
    const dangerous = new Set<AddressClass>(['loopback', 'linkLocal', 'metadata', 'unspecified']);
    const rows = ROWS.filter(([, cls]) => dangerous.has(cls));
    expect(rows.length).to.be.greaterThan(20);
    for (const [address] of rows) {
      expect(allowed('lan', address), address).to.equal(false);
      expect(allowed('public', address), address).to.equal(false);
    }
  });

  it('sees the same host a URL normalizes the legacy IPv4 forms to', () => {
    for (const host of ['127.1', '2130706433', '0x7f.1', '0177.0.0.1', '0x7f000001']) {
      const normalized = new URL(`http://${host}:8080/`).hostname;
      expect(normalized, host).to.equal('127.0.0.1');
      expect(classifyAddress(normalized)).to.equal(classifyAddress(host));
    }
    expect(new URL('http://[::ffff:127.0.0.1]/').hostname).to.equal('[::ffff:7f00:1]');
    expect(classifyAddress(new URL('http://[::ffff:127.0.0.1]/').hostname)).to.equal('loopback');
    expect(classifyAddress(new URL('http://[64:ff9b::127.0.0.1]/').hostname)).to.equal('loopback');
  });

  it('writes an address in one canonical form, IPv4-mapped as IPv4', () => {
    expect(canonicalAddress('::ffff:127.0.0.1')).to.equal('127.0.0.1');
    expect(canonicalAddress('[::FFFF:7f00:1]')).to.equal('127.0.0.1');
    expect(canonicalAddress('127.1')).to.equal('127.0.0.1');
    expect(canonicalAddress('0:0:0:0:0:0:0:1')).to.equal('::1');
    expect(canonicalAddress('fe80::1%eth0')).to.equal('fe80::1');
    expect(canonicalAddress('example.com')).to.equal(null);
  });
});
