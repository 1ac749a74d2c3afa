/** Signing as Standard Webhooks specifies it, checked against the standardwebhooks library. */
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { deliveryHeaders, newSigningSecret, sign } from '../../src/webhooks/sign.js';

describe('webhook signing', () => {
  const body = JSON.stringify({
    id: 'event_1',
    type: 'person.created',
    data: { object: { name: 'Ana Lima ✓' } },
  });

  it('makes whsec_ secrets of 24 random bytes', () => {
    const a = newSigningSecret();
    expect(a).to.match(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(a.slice(6), 'base64')).to.have.length(24);
    expect(newSigningSecret()).to.not.equal(a);
  });

  it('signs exactly as the standardwebhooks library does', () => {
    const secret = newSigningSecret();
    const at = new Date();
    const ts = Math.floor(at.getTime() / 1000);
    expect(sign(secret, 'event_1', ts, body)).to.equal(
      new Webhook(secret).sign('event_1', new Date(ts * 1000), body),
    );
  });

  it('puts one signature per secret in the header, and the library accepts either secret', () => {
    const [fresh, old] = [newSigningSecret(), newSigningSecret()];
    const ts = Math.floor(Date.now() / 1000);
    const h = deliveryHeaders([fresh, old], 'event_1', ts, body);
    expect(h['webhook-signature'].split(' ')).to.have.length(2);
    for (const s of [fresh, old])
      expect(new Webhook(s).verify(body, h)).to.deep.equal(JSON.parse(body));
    expect(() => new Webhook(newSigningSecret()).verify(body, h)).to.throw();
    expect(() => new Webhook(fresh).verify(`${body} `, h)).to.throw();
  });
});
