/**
 * The browser's language among the shipped ones (`Accept-Language`), and a receiver's address
 * refused by its literal form before any lookup.
 */
import { expect } from 'chai';
import { bestLocale } from '../../../src/domain/i18n/negotiate.js';
import { refusedLiteral } from '../../../src/integrations/literalAddress.js';

describe('i18n negotiate', () => {
  it('picks the best shipped language of an Accept-Language header, keeping its region', () => {
    expect(bestLocale('de-AT,de;q=0.9,en;q=0.5')).to.equal('de-AT');
    expect(bestLocale('ja,fr-CA;q=0.8,en;q=0.5')).to.equal('fr-CA');
    expect(bestLocale('en;q=0.2, ar-EG;q=0.9')).to.equal('ar-EG');
    expect(bestLocale('pt-PT')).to.equal('pt-PT');
    expect(bestLocale('en-XA')).to.equal('en-XA');
    expect(bestLocale('ja, zh-CN;q=0.9')).to.equal('en');
    expect(bestLocale('de;q=0, *')).to.equal('en');
    expect(bestLocale('not a tag!!, nl-BE')).to.equal('nl-BE');
    expect(bestLocale(undefined)).to.equal('en');
  });
});

describe('a receiver refused by its written address', () => {
  it('refuses loopback, private and metadata addresses as the policy says, and leaves names to the lookup', () => {
    expect(refusedLiteral('http://127.0.0.1:9/x', 'lan')).to.equal('loopback');
    expect(refusedLiteral('http://localhost/x', 'lan')).to.equal('loopback');
    expect(refusedLiteral('http://[::1]/x', 'public')).to.equal('loopback');
    expect(refusedLiteral('webcal://192.168.1.2/a.ics', 'public')).to.equal('private');
    expect(refusedLiteral('http://169.254.169.254/', 'lan')).to.equal('metadata');
    expect(refusedLiteral('http://192.168.1.2/', 'lan')).to.equal(null);
    expect(refusedLiteral('http://127.0.0.1/', 'any')).to.equal(null);
    expect(refusedLiteral('https://hooks.example.com/', 'public')).to.equal(null);
    expect(refusedLiteral('not a url', 'public')).to.equal(null);
  });
});
