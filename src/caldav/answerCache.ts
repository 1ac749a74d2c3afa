/**
 * REPORT answers kept per family until its next write: clients ask the same question again and
 * again (Home Assistant polls one window, phones the same ranges), keyed by the request itself.
 * A map of its own, so clients asking many different questions (ever-new sync tokens) do not
 * push the family's other derived values (listings, the search index) out of the state's shared
 * cache. Bounded by count and size, and only small answers are kept: a 117 MB expansion was once
 * kept here; a large answer is cheaper to write again than to hold.
 */
import type { FamilyState } from '../domain/shared/state.js';
import type { Answer } from './answer.js';

export const REMEMBERED = {
  /** Answers per family. */
  answers: 32,
  /** The largest answer kept. */
  answerBytes: 256 * 1024,
  /** All kept answers of one family together. */
  totalBytes: 2 * 1024 * 1024,
} as const;

interface Kept {
  version: number;
  byQuestion: Map<string, { text: string; bytes: number }>;
  bytes: number;
}

const kept = new WeakMap<FamilyState, Kept>();

function keptFor(state: FamilyState): Kept {
  let k = kept.get(state);
  if (!k || k.version !== state.version) {
    k = { version: state.version, byQuestion: new Map(), bytes: 0 };
    kept.set(state, k);
  }
  return k;
}

/** The answer kept for this question since the family's last write, if any. */
export function recall(state: FamilyState, question: string): string | undefined {
  return keptFor(state).byQuestion.get(question)?.text;
}

/**
 * Keeps an answer computed on the family's `version`, unless the family has written since (it
 * may be stale) or it is larger than REMEMBERED.answerBytes; the oldest answers make room.
 */
export function remember(
  state: FamilyState,
  version: number,
  question: string,
  answer: Answer,
): void {
  if (state.version !== version || answer.bytes > REMEMBERED.answerBytes) return;
  const k = keptFor(state);
  const before = k.byQuestion.get(question);
  if (before) {
    k.byQuestion.delete(question);
    k.bytes -= before.bytes;
  }
  k.byQuestion.set(question, { text: answer.text(), bytes: answer.bytes });
  k.bytes += answer.bytes;
  for (const [q, old] of k.byQuestion) {
    if (k.byQuestion.size <= REMEMBERED.answers && k.bytes <= REMEMBERED.totalBytes) break;
    k.byQuestion.delete(q);
    k.bytes -= old.bytes;
  }
}

/** How much of the family's answers are kept (for tests and metrics). */
export function keptSize(state: FamilyState): { answers: number; bytes: number } {
  const k = keptFor(state);
  return { answers: k.byQuestion.size, bytes: k.bytes };
}
