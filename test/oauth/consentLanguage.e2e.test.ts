/**
 * The consent page's language: the browser's (Accept-Language, among the shipped languages)
 * while nobody is known, the family's once an admin key names it; `lang` and `dir` follow.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authorizeUrl, hiddenFields, registerClient } from '../helpers/oauth.js';

describe('the consent page’s language', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    await server.api.patch('', { locale: 'ar-EG' });
  });
  after(() => server.close());

  it('speaks the browser’s language, then the family’s once a key names it', async () => {
    const url = await authorizeUrl(server.url, await registerClient(server.url, 'Helferlein'));
    const page = await fetch(url, { headers: { 'accept-language': 'de-DE,de;q=0.9' } });
    const html = await page.text();
    expect(html).to.contain('<html lang="de-DE" dir="ltr">');
    expect(html).to.contain('„<bdi>Helferlein</bdi>“ mit deinem Haushalt verbinden?');
    expect(html).to.contain('>Erlauben</button>');

    const wrong = await fetch(new URL('authorize', url), {
      method: 'POST',
      headers: { 'accept-language': 'de-DE' },
      body: new URLSearchParams({ ...hiddenFields(html), api_key: 'nope', decision: 'approve' }),
    });
    expect(wrong.status).to.equal(401);
    expect(await wrong.text()).to.contain('Dieser API-Schlüssel ist nicht gültig');

    // A read-only key of the family: refused, in the family's language (Arabic, right to left).
    const reader = await server.key({ scopes: ['read'] });
    const refused = await fetch(new URL('authorize', url), {
      method: 'POST',
      headers: { 'accept-language': 'de-DE' },
      body: new URLSearchParams({ ...hiddenFields(html), api_key: reader, decision: 'approve' }),
    });
    const text = await refused.text();
    expect(refused.status).to.equal(403);
    expect(text).to.contain('<html lang="ar-EG" dir="rtl">');
    expect(text).to.contain('هذا ليس مفتاح مشرف');
  });
});
