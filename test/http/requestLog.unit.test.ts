/**
 * What a failed request's log line keeps of its error (middleware/requestLog.ts): name, message,
 * code and stack, never the request body that parsers and HTTP clients attach to their errors.
 */
import { expect } from 'chai';
import { loggableError, loggablePath } from '../../src/door/requestLog.js';

describe('loggableError', () => {
  it('keeps name, message, code and stack and drops every other property', () => {
    const err = Object.assign(new SyntaxError('Unexpected token'), {
      code: 'E_PARSE',
      body: '{"secret":"x"}',
      rawBody: '{"secret":"x"}',
      status: 400,
      expose: true,
      headers: { 'x-api-key': 'hk_x' },
    });
    const logged = loggableError(err);
    expect(Object.keys(logged).sort()).to.deep.equal(['code', 'message', 'stack', 'type']);
    expect(logged).to.include({
      type: 'SyntaxError',
      message: 'Unexpected token',
      code: 'E_PARSE',
    });
    expect(JSON.stringify(logged)).to.not.include('secret').and.not.include('hk_x');
  });

  it('cuts long messages and stacks', () => {
    const logged = loggableError(new Error('m'.repeat(10_000)));
    expect((logged.message as string).length).to.equal(500);
    expect((logged.stack as string).length).to.be.at.most(4000);
  });

  it('describes a thrown value that is not an Error without its content', () => {
    expect(loggableError({ body: 'secret' })).to.deep.equal({
      type: 'object',
      message: 'a non-Error value was thrown',
    });
    expect(loggableError('secret')).to.deep.equal({
      type: 'string',
      message: 'a non-Error value was thrown',
    });
  });
});

describe('loggablePath', () => {
  it('cuts the token segment of the public share pages, whatever it looks like', () => {
    expect(loggablePath('/p/anything/else')).to.equal('/p/:redacted/else');
    expect(loggablePath('/P/anything')).to.equal('/P/:redacted');
    expect(loggablePath('/share/calendar/whatever.ics')).to.equal('/share/calendar/:redacted');
    expect(loggablePath('/p/')).to.equal('/p/');
    expect(loggablePath('/pp/x')).to.equal('/pp/x');
  });

  it('cuts any segment shaped like a key or token, and keeps the others', () => {
    expect(loggablePath('/api/v1/families/home/hk_abc')).to.equal(
      '/api/v1/families/home/:redacted',
    );
    expect(loggablePath('/x/SHR_a/y/pln_b.json')).to.equal('/x/:redacted/y/:redacted');
    expect(loggablePath('/api/v1/families/home/people/person_01kaq5')).to.equal(
      '/api/v1/families/home/people/person_01kaq5',
    );
  });

  it('keeps at most 200 characters', () => {
    expect(loggablePath(`/${'a'.repeat(199)}`)).to.have.length(200);
    expect(loggablePath(`/${'a'.repeat(300)}`)).to.equal(`/${'a'.repeat(199)}…`);
  });
});
