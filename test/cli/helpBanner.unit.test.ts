/**
 * The addresses `serve` shows at start (src/banner.ts): which URL the first-start banner names,
 * and when publicUrl earns the warning that other devices cannot use it. The daemon's own
 * start is in help.e2e.test.ts; listening on every interface is not done in tests.
 */
import { expect } from 'chai';
import {
  bannerUrl,
  isLoopbackHost,
  listensEverywhere,
  publicUrlWarning,
} from '../../src/banner.js';

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

  it('warns when every interface listens and publicUrl names localhost — and only then', () => {
    expect(publicUrlWarning('0.0.0.0', 'http://localhost:8080', 8080)).to.equal(
      'server.publicUrl is http://localhost:8080 while listening on all interfaces: share links and plan pages will point at localhost, ' +
        'which other devices cannot reach; set HOUSEHOLD_PUBLIC_URL or server.publicUrl to the address people use ' +
        "(e.g. http://<this machine's name or LAN address>:8080)",
    );
    expect(publicUrlWarning('::', 'http://127.0.0.1:9000/', 9000)).to.match(
      /^server.publicUrl is http:\/\/127.0.0.1:9000\/ while listening on all interfaces/,
    );
    expect(publicUrlWarning('0.0.0.0', 'http://192.168.1.20:8080', 8080)).to.equal(null);
    expect(publicUrlWarning('0.0.0.0', 'https://household.example.org', 8080)).to.equal(null);
    // Listening on loopback only: localhost links are right.
    expect(publicUrlWarning('127.0.0.1', 'http://localhost:8080', 8080)).to.equal(null);
    expect(publicUrlWarning('0.0.0.0', 'not a url', 8080)).to.match(
      /^server.publicUrl "not a url" is not a URL/,
    );
  });

  it('names publicUrl in the banner when other devices can use it, else the local address', () => {
    expect(bannerUrl('http://localhost:8080', 'http://127.0.0.1:8080')).to.equal(
      'http://127.0.0.1:8080',
    );
    expect(bannerUrl('http://127.0.0.1:8080', 'http://127.0.0.1:8080')).to.equal(
      'http://127.0.0.1:8080',
    );
    expect(bannerUrl('http://192.168.1.20:8080/', 'http://127.0.0.1:8080')).to.equal(
      'http://192.168.1.20:8080',
    );
    expect(bannerUrl('https://household.example.org/home/', 'http://127.0.0.1:8080')).to.equal(
      'https://household.example.org/home',
    );
    expect(bannerUrl('ftp://files.lan', 'http://127.0.0.1:8080')).to.equal('http://127.0.0.1:8080');
  });
});
