/**
 * The transports' own rules, without traffic to anything but loopback: the Title header's
 * RFC 2047 encoding, and the address check nodemailer's socket goes through (refusals are
 * proved on the classifier and the resolver hook, before any socket opens).
 */
import { expect } from 'chai';
import type { LookupFunction } from 'node:net';
import { encodeHeaderValue } from '../../src/integrations/push.js';
import { connectGuarded, createEmail } from '../../src/integrations/email.js';
import { EgressError } from '../../src/integrations/egress.js';
import { decodeWords } from '../helpers/fakes/rfc2047.js';
import { startSmtp } from '../helpers/fakes/smtp.js';

describe('the ntfy Title header', () => {
  it('keeps an ASCII title as it is and turns control characters into spaces', () => {
    expect(encodeHeaderValue('Dinner is ready')).to.equal('Dinner is ready');
    expect(encodeHeaderValue('two\r\nlines')).to.equal('two  lines');
  });

  it('encodes any other title as RFC 2047 words of at most 75 characters that decode back exactly', () => {
    for (const title of ['Müll', '🗑️ Bins', 'ゴミの日です。'.repeat(10), 'é'.repeat(200)]) {
      const encoded = encodeHeaderValue(title);
      expect(encoded).to.match(/^[\x20-\x7e]+$/);
      for (const word of encoded.split(' ')) {
        expect(word).to.match(/^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=$/);
        expect(word.length).to.be.at.most(75);
      }
      expect(decodeWords(encoded)).to.equal(title);
    }
  });
});

describe('the SMTP socket and the egress policy', () => {
  /** A resolver that answers without DNS, as a hostile DNS server would. */
  const resolvesTo =
    (address: string): LookupFunction =>
    (
      _host: string,
      _opts: unknown,
      cb: (e: null, a: { address: string; family: number }[]) => void,
    ) => {
      cb(null, [{ address, family: address.includes(':') ? 6 : 4 }]);
    };

  it('refuses an IP literal the policy does not allow before opening a socket', async () => {
    for (const [host, policy] of [
      ['10.0.0.5', 'public'],
      ['169.254.169.254', 'lan'],
      ['127.0.0.1', 'lan'],
      ['[::ffff:127.0.0.1]', 'public'],
    ] as const) {
      const err = await connectGuarded(host, 25, policy, 1_000).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, host).to.be.instanceOf(EgressError);
      expect((err as EgressError).kind, host).to.equal('refused_address');
    }
  });

  it("refuses a host name whose answer the policy does not allow, at the socket's own lookup", async () => {
    const err = await connectGuarded(
      'mail.example.test',
      25,
      'lan',
      1_000,
      resolvesTo('169.254.169.254'),
    ).then(
      () => null,
      (e: unknown) => e,
    );
    expect((err as EgressError).kind).to.equal('refused_address');
  });

  it('sends through a loopback SMTP server under any, and refuses to reach it under lan without sending', async () => {
    const smtp = await startSmtp();
    try {
      const ok = createEmail({ smtpUrl: smtp.url, from: 'House <h@example.test>', policy: 'any' });
      await ok.send('ana@example.test', { subject: 'Hi', text: 'Text' });
      ok.close();
      expect(smtp.messages.map((m) => m.to)).to.deep.equal([['ana@example.test']]);
      const refused = createEmail({
        smtpUrl: `smtp://mail.example.test:${smtp.port}`,
        from: 'h@example.test',
        policy: 'lan',
        lookup: resolvesTo('127.0.0.1'),
      });
      const err = await refused.send('ben@example.test', { subject: 'Hi', text: 'Text' }).then(
        () => null,
        (e: unknown) => e,
      );
      refused.close();
      expect(String((err as Error).message)).to.match(/egress refused/);
      expect(smtp.messages).to.have.length(1);
    } finally {
      await smtp.close();
    }
  });
});
