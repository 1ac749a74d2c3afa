/**
 * The signature of forwarded requests: what one node signs, the owner accepts; any edit of
 * what the owner acts on, another secret, or a stale time is refused.
 */
import { expect } from 'chai';
import {
  FORWARD_HEADERS,
  FORWARD_WINDOW_MS,
  signForward,
  verifyForward,
  type ForwardedRequest,
} from '../../src/cluster/forward.js';

const SECRET = 'k'.repeat(40);
const NOW = Date.UTC(2026, 10, 26, 12);

function request(over: Partial<ForwardedRequest> = {}): ForwardedRequest {
  return {
    method: 'POST',
    url: '/api/v1/families/home/collections/chores/entries?x=1',
    requestId: 'req_1',
    idempotencyKey: 'idem-1',
    apiKey: 'hk_key',
    authorization: 'Bearer hk_abc',
    body: new TextEncoder().encode('{"text":"bins"}'),
    ...over,
  };
}

describe('cluster: forwarded request signatures', () => {
  it('accepts what the sending node signed, naming the node', () => {
    const headers = signForward(SECRET, request(), 'node-a', NOW);
    expect(Object.keys(headers).sort()).to.deep.equal(Object.values(FORWARD_HEADERS).sort());
    expect(verifyForward(SECRET, request(), headers, NOW + 1000)).to.deep.equal({
      ok: true,
      node: 'node-a',
    });
  });

  it('refuses any edit of method, path, request id, idempotency key, credentials, body or node', () => {
    const headers = signForward(SECRET, request(), 'node-a', NOW);
    const edits: Partial<ForwardedRequest>[] = [
      { method: 'PUT' },
      { url: '/api/v1/families/home/collections/chores/entries?x=2' },
      { requestId: 'req_2' },
      { idempotencyKey: null },
      { idempotencyKey: 'idem-2' },
      { authorization: 'Bearer hk_other' },
      { authorization: null },
      { apiKey: 'hk_other' },
      { apiKey: null },
      { body: new TextEncoder().encode('{"text":"bins!"}') },
    ];
    for (const edit of edits) {
      expect(
        verifyForward(SECRET, request(edit), headers, NOW),
        JSON.stringify(edit),
      ).to.deep.equal({ ok: false, why: 'signature' });
    }
    const otherNode = { ...headers, [FORWARD_HEADERS.node]: 'node-b' };
    expect(verifyForward(SECRET, request(), otherNode, NOW)).to.deep.equal({
      ok: false,
      why: 'signature',
    });
  });

  it('refuses another secret, a stale or future time, and missing headers', () => {
    const headers = signForward(SECRET, request(), 'node-a', NOW);
    expect(verifyForward('z'.repeat(40), request(), headers, NOW)).to.deep.equal({
      ok: false,
      why: 'signature',
    });
    expect(verifyForward(SECRET, request(), headers, NOW + FORWARD_WINDOW_MS + 1)).to.deep.equal({
      ok: false,
      why: 'stale',
    });
    expect(verifyForward(SECRET, request(), headers, NOW - FORWARD_WINDOW_MS - 1)).to.deep.equal({
      ok: false,
      why: 'stale',
    });
    const { [FORWARD_HEADERS.signature]: _dropped, ...unsigned } = headers;
    expect(verifyForward(SECRET, request(), unsigned, NOW)).to.deep.equal({
      ok: false,
      why: 'missing',
    });
    const truncated = {
      ...headers,
      [FORWARD_HEADERS.signature]: headers[FORWARD_HEADERS.signature].slice(0, 10),
    };
    expect(verifyForward(SECRET, request(), truncated, NOW)).to.deep.equal({
      ok: false,
      why: 'signature',
    });
  });
});
