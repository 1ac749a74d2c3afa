/**
 * The addresses `serve` shows at start (src/banner.ts, src/addresses.ts): which host names are
 * loopback, which interfaces other devices can use, the lines of the first-start banner, and
 * when a configured publicUrl earns the warning that other devices cannot use it. The daemon's
 * own start is in help.e2e.test.ts; listening on every interface is not done in tests, so the
 * interfaces are handed in as os.networkInterfaces() would list them.
 */
import { expect } from 'chai';
import type { NetworkInterfaceInfo } from 'node:os';
import { addressLines, publicUrlWarning, runningInImage } from '../../src/banner.js';
import {
  Addresses,
  interfaceUrls,
  isLoopbackHost,
  listensEverywhere,
} from '../../src/addresses.js';

function nic(address: string, internal = false): NetworkInterfaceInfo {
  const family = address.includes(':') ? 'IPv6' : 'IPv4';
  return {
    address,
    family,
    internal,
    netmask: family === 'IPv4' ? '255.255.255.0' : 'ffff:ffff:ffff:ffff::',
    mac: '00:00:00:00:00:00',
    cidr: null,
    ...(family === 'IPv6' ? { scopeid: 0 } : {}),
  } as NetworkInterfaceInfo;
}

/** A machine with loopback, a LAN card (IPv4, a ULA and a link-local IPv6) and Wi-Fi. */
const machine = () => ({
  lo: [nic('127.0.0.1', true), nic('::1', true)],
  eth0: [nic('192.168.1.20'), nic('fd00::20'), nic('fe80::1c2:3ff:fe04:506')],
  wlan0: [nic('10.0.0.7'), nic('169.254.10.1')],
});

describe('first-start addresses', () => {
  it('tells loopback names and addresses from the others', () => {
    for (const h of [
      'localhost',
      'LOCALHOST',
      'app.localhost',
      '127.0.0.1',
      '127.1.2.3',
      '[::1]',
      '::1',
      '::ffff:127.0.0.1',
    ])
      expect(isLoopbackHost(h), h).to.equal(true);
    for (const h of [
      '192.168.1.20',
      'household.lan',
      'example.org',
      '[::]',
      '10.0.0.1',
      'localhost.example.org',
      '128.0.0.1',
    ])
      expect(isLoopbackHost(h), h).to.equal(false);
    for (const h of ['0.0.0.0', '::', '[::]']) expect(listensEverywhere(h), h).to.equal(true);
    for (const h of ['127.0.0.1', '192.168.1.20', '::1'])
      expect(listensEverywhere(h), h).to.equal(false);
  });

  it('lists each interface other devices can use with the port, IPv4 first, without loopback or link-local ones', () => {
    expect(interfaceUrls(18080, machine)).to.deep.equal([
      'http://192.168.1.20:18080',
      'http://10.0.0.7:18080',
      'http://[fd00::20]:18080',
    ]);
    expect(interfaceUrls(8080, () => ({ lo: [nic('127.0.0.1', true)] }))).to.deep.equal([]);
  });

  it('prints those addresses in the banner, and publicUrl alone when it is set', () => {
    const everywhere = new Addresses(
      { host: '0.0.0.0', publicUrl: null, trustedProxies: [] },
      machine,
    );
    everywhere.listening(18080);
    expect(addressLines(everywhere)).to.equal(
      'From other devices on the network:\n' +
        '    http://192.168.1.20:18080\n' +
        '    http://10.0.0.7:18080\n' +
        '    http://[fd00::20]:18080\n' +
        'On this machine: http://127.0.0.1:18080\n',
    );
    expect(everywhere.stored).to.equal('http://192.168.1.20:18080');
    // In a container those are the container's own addresses: other devices use the host's.
    expect(addressLines(everywhere, true)).to.equal(
      "From other devices: this host's address with the port the container publishes (e.g. docker run -p 8080:8080)\n" +
        'In the container: http://192.168.1.20:18080, http://10.0.0.7:18080, http://[fd00::20]:18080, http://127.0.0.1:18080\n',
    );

    const fixed = new Addresses(
      { host: '0.0.0.0', publicUrl: 'https://household.example.org/home/', trustedProxies: [] },
      machine,
    );
    fixed.listening(8080);
    expect(addressLines(fixed)).to.equal(
      'From other devices: https://household.example.org/home\nOn this machine: http://127.0.0.1:8080\n',
    );
    expect(fixed.stored).to.equal('https://household.example.org/home');

    const loopbackOnly = new Addresses(
      { host: '127.0.0.1', publicUrl: null, trustedProxies: [] },
      machine,
    );
    loopbackOnly.listening(9000);
    expect(addressLines(loopbackOnly)).to.equal(
      'Other devices cannot reach it: it listens on this machine only (server.host).\n' +
        'On this machine: http://127.0.0.1:9000\n',
    );
    expect(loopbackOnly.stored).to.equal('http://127.0.0.1:9000');
  });

  it('speaks of the published port only in the image (HOUSEHOLD_IMAGE), not in any other container or machine', () => {
    const before = process.env.HOUSEHOLD_IMAGE;
    try {
      delete process.env.HOUSEHOLD_IMAGE;
      // Whatever the machine is (this one may well have /.dockerenv): not the image.
      expect(runningInImage()).to.equal(false);
      process.env.HOUSEHOLD_IMAGE = '1';
      expect(runningInImage()).to.equal(true);
    } finally {
      if (before === undefined) delete process.env.HOUSEHOLD_IMAGE;
      else process.env.HOUSEHOLD_IMAGE = before;
    }
  });

  it('warns when every interface listens and a set publicUrl names localhost — and only then', () => {
    expect(publicUrlWarning('0.0.0.0', 'http://localhost:8080', 8080)).to.equal(
      'server.publicUrl is http://localhost:8080 while listening on all interfaces: links the daemon hands out and stores will point at localhost, ' +
        'which other devices cannot reach; set HOUSEHOLD_PUBLIC_URL or server.publicUrl to the address people use, ' +
        "or leave it unset so links follow the address each request came to (e.g. http://<this machine's LAN address>:8080)",
    );
    expect(publicUrlWarning('::', 'http://127.0.0.1:9000/', 9000)).to.match(
      /^server.publicUrl is http:\/\/127.0.0.1:9000\/ while listening on all interfaces/,
    );
    expect(publicUrlWarning('0.0.0.0', 'http://192.168.1.20:8080', 8080)).to.equal(null);
    expect(publicUrlWarning('0.0.0.0', 'https://household.example.org', 8080)).to.equal(null);
    // Listening on loopback only: localhost links are right; no publicUrl: links follow requests.
    expect(publicUrlWarning('127.0.0.1', 'http://localhost:8080', 8080)).to.equal(null);
    expect(publicUrlWarning('0.0.0.0', null, 8080)).to.equal(null);
  });
});
