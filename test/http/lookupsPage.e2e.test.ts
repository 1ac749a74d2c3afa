import { expect } from 'chai';
import { gzipSync } from 'node:zlib';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { conforms } from '../helpers/contract.js';
import { startFakePages, type FakePages } from '../helpers/fakes/pages.js';
import { PAGE_LIMITS } from '../../src/integrations/webPage.js';

const PAGE = '/api/v1/families/{familySlug}/web/page';
const para = (s: string) => `${s} `.repeat(12).trim();

const ARTICLE = `<!doctype html><html><head><meta charset="utf-8"><title>Pancakes – The Kitchen</title>
<style>body { color: red }</style><script>document.write('tracking')</script></head>
<body><nav><a href="/">Home</a> | <a href="/about">About us</a></nav>
<article><h1>Fluffy pancakes</h1>
<p>${para('Whisk the flour, the milk and two eggs into a smooth batter.')}</p>
<p>${para('Rest the batter for ten minutes, then fry thin rounds in butter.')}</p>
</article><footer>© 2026 The Kitchen</footer></body></html>`;

describe('GET /web/page', () => {
  let server: TestServer;
  let pages: FakePages;
  const read = (url: string) => server.api.get(`/web/page?url=${encodeURIComponent(url)}`);
  before(async () => {
    pages = await startFakePages();
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
    await pages.close();
  });

  it('answers the article of an HTML page: its title and paragraphs, without scripts, styles or navigation', async () => {
    pages.page('/pancakes', {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: ARTICLE,
    });
    const r = await read(`${pages.origin}/pancakes`);
    expect(r.status).to.equal(200);
    await conforms(server, r, 'get', PAGE);
    expect(r.body).to.include({
      ok: true,
      url: `${pages.origin}/pancakes`,
      title: 'Pancakes – The Kitchen',
      truncated: false,
      contentType: 'text/html',
    });
    expect(r.body.text.split('\n\n')).to.deep.equal([
      'Fluffy pancakes',
      para('Whisk the flour, the milk and two eggs into a smooth batter.'),
      para('Rest the batter for ten minutes, then fry thin rounds in butter.'),
    ]);
    for (const gone of ['tracking', 'color', 'About us']) expect(r.body.text).to.not.contain(gone);
  });

  it('falls back to the body text when Readability finds no article', async () => {
    pages.page('/closed', {
      headers: { 'content-type': 'text/html' },
      body: '<html><head><title>Shop</title><script>x()</script></head><body><footer>Closed on <b>Sundays</b><br>Open 9–17</footer></body></html>',
    });
    const r = await read(`${pages.origin}/closed`);
    expect(r.status).to.equal(200);
    expect(r.body).to.include({ title: 'Shop', text: 'Closed on Sundays\nOpen 9–17' });
  });

  it('passes plain text as it is, lines and all', async () => {
    pages.page('/list.txt', {
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: 'Milk\n  Eggs (12)\r\nFlour\n',
    });
    const r = await read(`${pages.origin}/list.txt`);
    expect(r.body).to.include({
      title: '',
      text: 'Milk\n  Eggs (12)\nFlour',
      contentType: 'text/plain',
    });
  });

  it('refuses other content types with a 400 naming the type', async () => {
    pages.page('/menu.pdf', { headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.7' });
    pages.page('/photo', {
      headers: { 'content-type': 'image/png' },
      body: Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    });
    pages.page('/untyped', { body: 'just bytes' });
    for (const [path, named] of [
      ['/menu.pdf', 'application/pdf'],
      ['/photo', 'image/png'],
      ['/untyped', 'a document without a content type'],
    ]) {
      const r = await read(`${pages.origin}${path}`);
      expect(r.status, path).to.equal(400);
      await conforms(server, r, 'get', PAGE);
      expect(r.body.code).to.equal('unsupported_media_type');
      expect(r.body.error).to.contain(named);
      expect(r.body.issues[0].path).to.deep.equal(['query', 'url']);
    }
    // Without a type, a document that plainly is HTML is read as HTML.
    pages.page('/bare-html', {
      body: '<!DOCTYPE html><html><body><p>Plain enough</p></body></html>',
    });
    expect((await read(`${pages.origin}/bare-html`)).body.text).to.equal('Plain enough');
  });

  it("decodes with the charset of the header, else of the page's meta tag, else UTF-8", async () => {
    const latin1 = (head: string) =>
      Buffer.from(
        `<html><head>${head}</head><body><p>Crème brûlée à la carte</p></body></html>`,
        'latin1',
      );
    pages.page('/header', {
      headers: { 'content-type': 'text/html; charset=ISO-8859-1' },
      body: latin1(''),
    });
    pages.page('/meta', {
      headers: { 'content-type': 'text/html' },
      body: latin1('<meta charset="windows-1252">'),
    });
    pages.page('/equiv', {
      headers: { 'content-type': 'text/html' },
      body: latin1('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">'),
    });
    pages.page('/utf8', {
      headers: { 'content-type': 'text/html' },
      body: Buffer.from('<html><body><p>Crème brûlée à la carte</p></body></html>', 'utf8'),
    });
    pages.page('/plain-latin1', {
      headers: { 'content-type': 'text/plain; charset=latin1' },
      body: Buffer.from('Smørrebrød', 'latin1'),
    });
    for (const path of ['/header', '/meta', '/equiv', '/utf8']) {
      expect((await read(`${pages.origin}${path}`)).body.text, path).to.equal(
        'Crème brûlée à la carte',
      );
    }
    expect((await read(`${pages.origin}/plain-latin1`)).body.text).to.equal('Smørrebrød');
  });

  it('follows redirects and answers the URL the text came from', async () => {
    pages.redirect('/old', '/new');
    pages.page('/new', { headers: { 'content-type': 'text/plain' }, body: 'moved here' });
    const r = await read(`${pages.origin}/old`);
    expect(r.body).to.include({ url: `${pages.origin}/new`, text: 'moved here' });
  });

  it('reads a page of exactly 5 MiB decompressed and refuses one byte more with 502', async () => {
    const max = PAGE_LIMITS.maxBytes;
    expect(max).to.equal(5 * 2 ** 20);
    pages.page('/big', { headers: { 'content-type': 'text/plain' }, body: Buffer.alloc(max, 'a') });
    pages.page('/big-gz', {
      headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip' },
      body: gzipSync(Buffer.alloc(max, 'b')),
    });
    pages.page('/too-big', {
      headers: { 'content-type': 'text/plain' },
      body: Buffer.alloc(max + 1, 'a'),
    });
    pages.page('/too-big-gz', {
      headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip' },
      body: gzipSync(Buffer.alloc(max + 1, 'b')),
    });
    for (const path of ['/big', '/big-gz']) {
      const r = await read(`${pages.origin}${path}`);
      expect(r.status, path).to.equal(200);
      expect(r.body.truncated).to.equal(true);
    }
    for (const path of ['/too-big', '/too-big-gz']) {
      const r = await read(`${pages.origin}${path}`);
      expect(r.status, path).to.equal(502);
      await conforms(server, r, 'get', PAGE);
      expect(r.body).to.include({
        code: 'upstream_failed',
        error: 'The page is larger than 5 MiB (decompressed), the most this daemon reads',
      });
    }
  });

  it('cuts the text at 100,000 characters and says so, and keeps a text of exactly that length whole', async () => {
    const max = PAGE_LIMITS.textMax;
    expect(max).to.equal(100_000);
    pages.page('/exact', { headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(max) });
    pages.page('/over', {
      headers: { 'content-type': 'text/plain' },
      body: `${'word '.repeat(max / 5)}z`,
    });
    const exact = await read(`${pages.origin}/exact`);
    expect(exact.body.text).to.have.length(max);
    expect(exact.body.truncated).to.equal(false);
    const over = await read(`${pages.origin}/over`);
    expect(over.body.truncated).to.equal(true);
    expect(over.body.text.length).to.be.at.most(max);
    expect(over.body.text.endsWith('word')).to.equal(true);
  });

  it('answers 502 when the page answers an error status', async () => {
    const r = await read(`${pages.origin}/missing`);
    expect(r.status).to.equal(502);
    expect(r.body).to.include({ code: 'upstream_failed', error: 'The page answered 404' });
  });

  it('refuses a missing url and anything but an absolute http(s) URL with 400', async () => {
    const before = pages.service.requests.length;
    for (const qs of [
      '',
      '?url=',
      `?url=${encodeURIComponent('ftp://127.0.0.1/file')}`,
      '?url=not%20a%20url',
      `?url=${encodeURIComponent('/relative/path')}`,
      `?url=${encodeURIComponent('file:///etc/passwd')}`,
    ]) {
      const r = await server.api.get(`/web/page${qs}`);
      expect(r.status, qs).to.equal(400);
      expect(r.body.issues[0].path, qs).to.deep.equal(['query', 'url']);
    }
    expect(pages.service.requests.length).to.equal(before);
  });
});

describe('GET /web/page under the default egress policy (public)', () => {
  let server: TestServer;
  let pages: FakePages;
  before(async () => {
    pages = await startFakePages();
    pages.page('/', { headers: { 'content-type': 'text/plain' }, body: 'secret admin page' });
    server = await startTestServer({ overrides: { egress: { webPages: 'public' } } });
  });
  after(async () => {
    await server.close();
    await pages.close();
  });

  it('refuses loopback in every spelling and through DNS with 400, before any connection', async () => {
    const port = pages.service.port;
    const urls = [
      `http://127.0.0.1:${port}/`,
      `http://localhost:${port}/`,
      `http://[::1]:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://127.1:${port}/`,
      `http://2130706433:${port}/`,
      `http://0.0.0.0:${port}/`,
      `https://127.0.0.1:${port}/`,
    ];
    for (const url of urls) {
      const r = await server.api.get(`/web/page?url=${encodeURIComponent(url)}`);
      expect(r.status, url).to.equal(400);
      await conforms(server, r, 'get', PAGE);
      expect(r.body.code, url).to.equal('invalid_request');
      expect(r.body.issues[0].path).to.deep.equal(['query', 'url']);
      expect(r.body.issues[0].message, url).to.match(
        /^leads to a (loopback|unspecified) address .*only public addresses are fetched$/,
      );
    }
    expect(pages.service.connections).to.equal(0);
  });
});
