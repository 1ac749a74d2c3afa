/**
 * The logger's last line of defence (src/logger.ts): whatever a log call is given — an error
 * message, a nested field, a stack — every credential shape is cut out of the written line.
 */
import { expect } from 'chai';
import { Writable } from 'node:stream';
import { createLogger, redactCredentials } from '../../src/logger.js';

const TOKENS = {
  apiKey: 'hk_AbCdEfGhIjKl_0123456789abcdefghijABCDEFGHIJ',
  display: 'dsp_0123456789abcdefghijABCDEFGHIJkl',
  share: 'shr_0123456789abcdefghijABCDEFGHIJkl',
  plan: 'pln_0123456789abcdefghijABCDEFGHIJkl',
  ticket: 'stk_0123456789abcdefghijABCDEFGHIJkl',
  code: 'hoc_0123456789abcdef_0123456789abcdefghijABCDEFGHIJ',
  access: 'hoa_0123456789abcdef_0123456789abcdefghijABCDEFGHIJ',
  refresh: 'hor_0123456789abcdef_0123456789abcdefghijABCDEFGHIJ',
  clientSecret: `hcs_${'a1B2'.repeat(10)}`,
  webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
};

describe('createLogger: credentials in log lines', () => {
  it('cuts every credential shape out of messages, fields, errors and stacks', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const logger = createLogger('info', sink);
    for (const [kind, token] of Object.entries(TOKENS)) {
      const err = new Error(`could not use ${token} here`);
      logger.error({ err, kind, nested: { path: `/x/${token}/y`, list: [token] } }, `saw ${token}`);
    }
    const all = lines.join('');
    expect(lines).to.have.length(Object.keys(TOKENS).length);
    for (const token of Object.values(TOKENS)) expect(all).to.not.contain(token.slice(4));
    expect(all.match(/\[redacted\]/g)!.length).to.be.at.least(5 * lines.length);
    for (const l of lines) expect(() => JSON.parse(l) as unknown).to.not.throw();
  });

  it('leaves ids, slugs and ordinary words alone', () => {
    const text =
      'ent_01kaq5m2v8x3c4d5e6f7 plan_01kaq5m2v8x3c4d5e6f7 /api/v1/families/home/people check_in hk_ dsp_ ok';
    expect(redactCredentials(text)).to.equal(text);
  });

  it('cuts the token of a token page out of a path whatever its shape', () => {
    expect(redactCredentials('GET /pair/abc123XYZ/apple.mobileconfig')).to.equal(
      'GET /pair/:redacted/apple.mobileconfig',
    );
    expect(redactCredentials('"path":"/display/whatever-it-is"')).to.equal(
      '"path":"/display/:redacted"',
    );
  });
});
