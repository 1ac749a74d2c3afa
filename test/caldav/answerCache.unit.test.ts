/**
 * The CalDAV door's kept REPORT answers (src/caldav/answerCache.ts): only answers to a question
 * asked twice, only small ones, at most so many and so much per family, and only until the
 * family's next write.
 */
import { expect } from 'chai';
import { FamilyState } from '../../src/domain/shared/state.js';
import { Answer } from '../../src/caldav/answer.js';
import { REMEMBERED, keptSize, recall, remember } from '../../src/caldav/answerCache.js';

const family = () =>
  new FamilyState({
    id: 'fam_1',
    slug: 'home',
    name: 'Home',
    timezone: 'UTC',
    createdAt: '2026-01-01T00:00:00.000Z',
  });

/** A question asked twice and not answered from the store (what makes its answer kept). */
function askTwice(state: FamilyState, question: string): void {
  expect(recall(state, question)).to.equal(undefined);
  expect(recall(state, question)).to.equal(undefined);
}

/** The answer to a question asked twice, kept. */
function remembered(state: FamilyState, question: string, answer: Answer, version = state.version) {
  askTwice(state, question);
  remember(state, version, question, answer);
}

function answerOf(bytes: number): Answer {
  const a = new Answer();
  a.add('x'.repeat(bytes));
  return a;
}

describe('remember and recall (REPORT answers)', () => {
  it('does not keep the answer to a question asked once', () => {
    const state = family();
    expect(recall(state, 'q')).to.equal(undefined);
    remember(state, state.version, 'q', answerOf(100));
    expect(recall(state, 'q')).to.equal(undefined);
    expect(keptSize(state)).to.deep.equal({ answers: 0, bytes: 0 });
  });

  it('keeps the answer to a question asked again, and answers the third ask from it', () => {
    const state = family();
    remembered(state, 'q', answerOf(100));
    expect(recall(state, 'q')).to.equal('x'.repeat(100));
  });

  it('forgets a question asked once when the family writes', () => {
    const state = family();
    expect(recall(state, 'q')).to.equal(undefined);
    state.apply([]);
    expect(recall(state, 'q')).to.equal(undefined);
    remember(state, state.version, 'q', answerOf(100));
    expect(keptSize(state).answers).to.equal(0);
  });

  it('keeps a small answer until the family’s next write', () => {
    const state = family();
    remembered(state, 'q', answerOf(100));
    expect(recall(state, 'q')).to.equal('x'.repeat(100));
    state.apply([]);
    expect(recall(state, 'q')).to.equal(undefined);
  });

  it('never keeps an answer larger than 256 KiB', () => {
    const state = family();
    remembered(state, 'big', answerOf(REMEMBERED.answerBytes + 1));
    expect(recall(state, 'big')).to.equal(undefined);
    expect(keptSize(state)).to.deep.equal({ answers: 0, bytes: 0 });
  });

  it('keeps at most 2 MiB of a family’s answers, dropping the oldest first', () => {
    const state = family();
    for (let i = 0; i < 12; i++) remembered(state, `q${i}`, answerOf(250 * 1024));
    const size = keptSize(state);
    expect(size.bytes).to.be.at.most(REMEMBERED.totalBytes);
    expect(size.answers).to.equal(8);
    expect(recall(state, 'q0')).to.equal(undefined);
    expect(recall(state, 'q11')).to.be.a('string');
  });

  it('keeps at most 32 answers', () => {
    const state = family();
    for (let i = 0; i < 40; i++) remembered(state, `q${i}`, answerOf(10));
    expect(keptSize(state)).to.deep.equal({ answers: 32, bytes: 320 });
  });

  it('does not keep an answer computed before a write that landed while it was written', () => {
    const state = family();
    const version = state.version;
    askTwice(state, 'q');
    state.apply([]);
    askTwice(state, 'q');
    remember(state, version, 'q', answerOf(10));
    expect(recall(state, 'q')).to.equal(undefined);
  });

  it('keeps one answer when two requests asking the same question both computed it', () => {
    const state = family();
    askTwice(state, 'q');
    expect(recall(state, 'q')).to.equal(undefined);
    remember(state, state.version, 'q', answerOf(10));
    remember(state, state.version, 'q', answerOf(20));
    expect(keptSize(state)).to.deep.equal({ answers: 1, bytes: 10 });
  });
});
