/**
 * The pieces of src/addresses.ts that need no server: which peers server.trustedProxies
 * names, which Host values a link may be built on, and which hosts name this daemon for the
 * MCP door's DNS-rebinding guard. What requests see is in test/http/addresses.e2e.test.ts.
 */
import { expect } from 'chai';
import { hostname, type NetworkInterfaceInfo } from 'node:os';
import { Addresses, cleanHost, parseIp, proxyMatcher } from '../src/addresses.js';

const nic = (address: string): NetworkInterfaceInfo =>
  ({
    address,
    internal: false,
    family: address.includes(':') ? 'IPv6' : 'IPv4',
  }) as NetworkInterfaceInfo;

describe('Addresses', () => {
  it('matches trusted proxies by address and CIDR range, IPv4-mapped forms included', () => {
    const trusted = proxyMatcher([
      '10.0.0.5',
      '172.16.0.0/12',
      'fd00::/8',
      '::ffff:192.168.7.0/120',
    ]);
    for (const ip of ['10.0.0.5', '::ffff:10.0.0.5', '172.20.3.4', 'fd00::1', '192.168.7.77'])
      expect(trusted(parseIp(ip)), ip).to.equal(true);
    for (const ip of ['10.0.0.6', '172.32.0.1', 'fe80::1', '192.168.8.1', '127.0.0.1'])
      expect(trusted(parseIp(ip)), ip).to.equal(false);
    expect(trusted(parseIp('not an address'))).to.equal(false);
    expect(proxyMatcher([])(parseIp('127.0.0.1'))).to.equal(false);
  });

  it('builds links only on a Host that is a name or an address with a port', () => {
    expect(cleanHost('Household.LAN:8080')).to.equal('household.lan:8080');
    expect(cleanHost('192.168.1.20:18080')).to.equal('192.168.1.20:18080');
    expect(cleanHost('[FD00::20]:8080')).to.equal('[fd00::20]:8080');
    // The first of a proxy chain's list, as the proxy nearest the client wrote it.
    expect(cleanHost('a.example, b.example')).to.equal('a.example');
    for (const bad of [
      '',
      undefined,
      'evil.example/path',
      'user@evil.example',
      'evil.example:port',
      'two words',
      'evil.example:8080/x',
      '<script>',
      'a'.repeat(300),
    ])
      expect(cleanHost(bad), String(bad)).to.equal(null);
  });

  it("knows its own hosts for /mcp: publicUrl's, loopback, this machine's name and addresses — no other", () => {
    const a = new Addresses(
      { host: '0.0.0.0', publicUrl: 'https://household.example.org', trustedProxies: [] },
      () => ({ eth0: [nic('192.168.1.20'), nic('fd00::20')] }),
    );
    for (const h of [
      'household.example.org',
      'localhost:3000',
      '127.0.0.1:8080',
      '[::1]:8080',
      '192.168.1.20:18080',
      '[fd00::20]:8080',
      `${hostname()}:8080`,
      `${hostname()}.local`,
    ])
      expect(a.ownHost(h), h).to.equal(true);
    // The address a connection arrived on is this machine's too (a container's own address).
    expect(a.ownHost('172.17.0.2:8080', '::ffff:172.17.0.2')).to.equal(true);
    for (const h of [
      'evil.example',
      'household.example.org.evil.example',
      'household.example.org:444',
      '192.168.1.21:8080',
      '8.8.8.8',
      'bad host',
    ])
      expect(a.ownHost(h), h).to.equal(false);
  });
});
