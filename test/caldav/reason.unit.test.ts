/**
 * The reason phrase of CalDAV refusals (src/caldav/reason.ts): the message, safe for a status
 * line whatever it holds.
 */
import { expect } from 'chai';
import { REASON_MAX, reasonPhrase } from '../../src/caldav/reason.js';

describe('reasonPhrase (the status line of a CalDAV refusal)', () => {
  it('keeps a short ASCII message as it is', () => {
    expect(reasonPhrase('This API key may only read')).to.equal('This API key may only read');
  });

  it('turns accents, typographic quotes and dashes into ASCII, and other characters into "?"', () => {
    expect(reasonPhrase('Zürich’s “Bringebærsyltetøy” – ok … 日')).to.equal(
      'Zurich\'s "Bringebaersyltetoy" - ok ... ?',
    );
  });

  it('never lets CR, LF or other control characters through', () => {
    const p = reasonPhrase('a\r\nHTTP/1.1 200 OK\r\nX-Evil: 1\u0000\u0007b');
    // eslint-disable-next-line no-control-regex -- control characters are what this looks for
    expect(p).not.to.match(/[\r\n\u0000-\u001f\u007f]/);
    expect(p).to.equal('a HTTP/1.1 200 OK X-Evil: 1??b');
  });

  it('cuts a long message after a clause or a word, within the limit, with "..."', () => {
    const long = `${'word '.repeat(30)}end; ${'more '.repeat(40)}`;
    const p = reasonPhrase(long);
    expect(p.length).to.be.at.most(REASON_MAX);
    expect(p.endsWith('end...')).to.equal(true);
    const words = reasonPhrase('x'.repeat(40) + ' ' + 'y'.repeat(300));
    expect(words).to.equal(`${'x'.repeat(40)} ${'y'.repeat(REASON_MAX - 44)}...`);
  });
});
