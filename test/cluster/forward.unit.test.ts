/**
 * The signature of forwarded requests: what one node signs for another, that node accepts;
 * any edit of the request — its method, path, body, any header line (added, removed, changed
 * or repeated) — or of the envelope (sender, addressee, time, client address, nonce), another
 * secret, a stale time or another addressee is refused; a nonce is accepted once per window.
 */
import { expect } from 'chai';
import {
  FORWARD_HEADERS,
  FORWARD_WINDOW_MS,
  SeenNonces,
  signedLines,
  signForward,
  verifyForward,
  type ForwardEnvelope,
  type ForwardedRequest,
} from '../../src/cluster/forward.js';

const SECRET = 'k'.repeat(40);
const NOW = Date.UTC(2026, 10, 26, 12);

/** The header lines a forward of a CalDAV PUT carries, as Node's rawHeaders lists them. */
const RAW = [
  'host',
  '127.0.0.1:8081',
  'authorization',
  'Basic aG9tZTpoa194',
  'content-type',
  'text/calendar',
  'if-match',
  '"etag-1"',
  'depth',
  '1',
  'idempotency-key',
  'idem-1',
  'x-request-id',
  'req_1',
  'accept',
  'application/json',
  'content-length',
  '15',
  'connection',
  'keep-alive',
];

function request(over: Partial<ForwardedRequest> = {}): ForwardedRequest {
  return {
    method: 'PUT',
    url: '/dav/home/calendar/a.ics?x=1',
    headers: signedLines(RAW),
    body: new TextEncoder().encode('BEGIN:VCALENDAR'),
    ...over,
  };
}

const envelope: ForwardEnvelope = {
  node: 'node-a',
  to: 'node-b',
  at: NOW,
  client: '192.0.2.7',
  nonce: 'n0nce-n0nce-n0nce-n0nce',
};

describe('cluster: forwarded request signatures', () => {
  it('accepts what the sending node signed for this node, with the client address and nonce', () => {
    const headers = signForward(SECRET, request(), envelope);
    expect(Object.keys(headers).sort()).to.deep.equal(Object.values(FORWARD_HEADERS).sort());
    expect(verifyForward(SECRET, request(), headers, NOW + 1000, 'node-b')).to.deep.equal({
      ok: true,
      envelope,
    });
  });

  it('signs every header line but the framing ones: Host, credentials, Content-Type, If-Match, Depth, Accept …', () => {
    const names = signedLines(RAW).map(([n]) => n);
    expect(names).to.deep.equal([
      'host',
      'authorization',
      'content-type',
      'if-match',
      'depth',
      'idempotency-key',
      'x-request-id',
      'accept',
    ]);
    // The envelope's own headers are not lines of the request.
    expect(signedLines([FORWARD_HEADERS.nonce, 'x', 'Last-Event-ID', '7'])).to.deep.equal([
      ['last-event-id', '7'],
    ]);
  });

  it('refuses any edit of method, path, body or a header line, added, removed or repeated', () => {
    const headers = signForward(SECRET, request(), envelope);
    const lines = signedLines(RAW);
    const edits: Partial<ForwardedRequest>[] = [
      { method: 'DELETE' },
      { url: '/dav/home/calendar/a.ics?x=2' },
      { body: new TextEncoder().encode('BEGIN:VCALENDAR!') },
      { headers: lines.map(([n, v]) => [n, n === 'if-match' ? '"etag-2"' : v]) },
      { headers: lines.map(([n, v]) => [n, n === 'depth' ? 'infinity' : v]) },
      { headers: lines.filter(([n]) => n !== 'idempotency-key') },
      { headers: [...lines, ['last-event-id', '12']] },
      { headers: [...lines, ['content-type', 'application/json']] },
      { headers: lines.map(([n, v]) => [n, n === 'authorization' ? 'Basic b3RoZXI=' : v]) },
    ];
    for (const edit of edits) {
      expect(
        verifyForward(SECRET, request(edit), headers, NOW, 'node-b'),
        JSON.stringify(edit),
      ).to.deep.equal({ ok: false, why: 'signature' });
    }
    // Lines in another order (a hop may reorder them) are the same request.
    const reordered = request({ headers: [...lines].reverse() });
    expect(verifyForward(SECRET, reordered, headers, NOW, 'node-b').ok).to.equal(true);
  });

  it('refuses any edit of the envelope: sender, addressee, client address, nonce', () => {
    const headers = signForward(SECRET, request(), envelope);
    for (const [name, value] of [
      [FORWARD_HEADERS.node, 'node-c'],
      [FORWARD_HEADERS.to, 'node-c'],
      [FORWARD_HEADERS.client, '198.51.100.1'],
      [FORWARD_HEADERS.nonce, 'another-nonce-another'],
    ]) {
      expect(
        verifyForward(SECRET, request(), { ...headers, [name]: value }, NOW, 'node-b'),
        name,
      ).to.deep.equal({ ok: false, why: 'signature' });
    }
  });

  it('refuses another secret, another addressee, a stale or future time, and missing headers', () => {
    const headers = signForward(SECRET, request(), envelope);
    const check = (h: Record<string, string>, now = NOW, self = 'node-b') =>
      verifyForward(SECRET, request(), h, now, self);
    expect(verifyForward('z'.repeat(40), request(), headers, NOW, 'node-b')).to.deep.equal({
      ok: false,
      why: 'signature',
    });
    expect(check(headers, NOW, 'node-c')).to.deep.equal({ ok: false, why: 'elsewhere' });
    expect(check(headers, NOW + FORWARD_WINDOW_MS + 1)).to.deep.equal({ ok: false, why: 'stale' });
    expect(check(headers, NOW - FORWARD_WINDOW_MS - 1)).to.deep.equal({ ok: false, why: 'stale' });
    for (const name of Object.values(FORWARD_HEADERS)) {
      const { [name]: _dropped, ...without } = headers;
      expect(check(without), name).to.deep.equal({ ok: false, why: 'missing' });
    }
    const truncated = {
      ...headers,
      [FORWARD_HEADERS.signature]: headers[FORWARD_HEADERS.signature].slice(0, 10),
    };
    expect(check(truncated)).to.deep.equal({ ok: false, why: 'signature' });
  });

  it('accepts a nonce once while its forward could be accepted, and forgets it after', () => {
    const seen = new SeenNonces(FORWARD_WINDOW_MS);
    expect(seen.first('n1', NOW)).to.equal(true);
    expect(seen.first('n2', NOW + 10)).to.equal(true);
    expect(seen.first('n1', NOW + 2 * FORWARD_WINDOW_MS - 1)).to.equal(false);
    // By then a forward signed with it is stale everywhere: it is forgotten.
    expect(seen.first('n3', NOW + 2 * FORWARD_WINDOW_MS + 20)).to.equal(true);
    expect(seen.size).to.equal(1);
  });
});
