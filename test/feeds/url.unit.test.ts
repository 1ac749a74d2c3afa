import { expect } from 'chai';
import { maskedUrl, readFeedAddress } from '../../src/domain/feeds/url.js';
import { DomainError } from '../../src/domain/shared/errors.js';

function refused(input: string): string {
  try {
    readFeedAddress(input);
  } catch (e) {
    expect(e).to.be.instanceOf(DomainError);
    const err = e as DomainError;
    expect(err.kind).to.equal('invalid');
    expect(err.issues![0].path).to.deep.equal(['url']);
    return err.issues![0].message;
  }
  throw new Error(`accepted ${input}`);
}

describe('feed addresses', () => {
  it('reads webcal and webcals as https and keeps http and https', () => {
    expect(readFeedAddress('webcal://cal.example/a.ics').url).to.equal('https://cal.example/a.ics');
    expect(readFeedAddress('WEBCALS://cal.example/a.ics?x=1').url).to.equal(
      'https://cal.example/a.ics?x=1',
    );
    expect(readFeedAddress('http://cal.example:8080/a.ics').url).to.equal(
      'http://cal.example:8080/a.ics',
    );
    expect(readFeedAddress('  https://cal.example/a.ics#frag ').url).to.equal(
      'https://cal.example/a.ics',
    );
  });

  it('takes credentials out of the URL, decoded', () => {
    const a = readFeedAddress('https://ana%40home:p%3Ass%20w@cal.example/private.ics');
    expect(a).to.deep.equal({
      url: 'https://cal.example/private.ics',
      credentials: { username: 'ana@home', password: 'p:ss w' },
    });
    expect(readFeedAddress('webcal://token@cal.example/x').credentials).to.deep.equal({
      username: 'token',
      password: '',
    });
    expect(readFeedAddress('https://cal.example/x').credentials).to.equal(null);
  });

  it('refuses other schemes, relative and host-less URLs, with the reason', () => {
    expect(refused('ftp://cal.example/a.ics')).to.equal('must use http, https or webcal, not ftp');
    expect(refused('file:///etc/passwd')).to.equal('must use http, https or webcal, not file');
    expect(refused('/a.ics')).to.equal('must be an absolute http, https or webcal URL');
    expect(refused('   ')).to.equal('must not be blank');
    expect(refused('https://')).to.equal('is not a valid URL');
  });

  it('takes a URL of 2,048 characters and refuses 2,049', () => {
    const base = 'https://cal.example/';
    expect(readFeedAddress(base + 'a'.repeat(2048 - base.length)).url).to.have.length(2048);
    expect(refused(base + 'a'.repeat(2049 - base.length))).to.equal(
      'must be at most 2048 characters',
    );
  });

  it('masks path and query, keeping scheme, host and port', () => {
    expect(
      maskedUrl('https://calendar.google.com/calendar/ical/x%40group/private-abc/basic.ics'),
    ).to.equal('https://calendar.google.com/***');
    expect(maskedUrl('http://ha.local:8123/api/calendar?token=abc')).to.equal(
      'http://ha.local:8123/***?***',
    );
    expect(maskedUrl('https://cal.example/')).to.equal('https://cal.example/');
    expect(maskedUrl('https://cal.example/?k=v')).to.equal('https://cal.example/?***');
  });
});
