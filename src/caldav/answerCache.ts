/**
 * REPORT answers kept per family until its next write: clients ask the same question again and
 * again (Home Assistant polls one window, phones the same ranges), keyed by the request itself.
 * A map of its own, so clients asking many different questions (ever-new sync tokens) do not
 * push the family's other derived values (listings, the search index) out of the state's shared
 * cache. Bounded by count and size, and only small answers are kept: a 117 MB expansion was once
 * kept here; a large answer is cheaper to write again than to hold.
 *
 * Only a question asked a second time since the last write is kept: a client asking ever-new
 * windows (a phone scrolling, the bench's new bodies) would otherwise have every answer kept and
 * dropped unused, and keeping 100 KB strings that live past the young generation cost more CPU
 * in the collector's threads (measured: 0.2 ms per answer) than the question itself. A polling
 * client's second ask is computed once more, every later one is read from here.
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
  /** Questions asked once that are remembered as asked (cleared when full). */
  askedOnce: 256,
} as const;

interface Kept {
  version: number;
  byQuestion: Map<string, { text: string; bytes: number }>;
  bytes: number;
  /** Questions missed once since the version; a second miss makes the answer worth keeping. */
  missed: Set<string>;
  /** Questions missed twice or more: their answers are kept. */
  wanted: Set<string>;
}

const kept = new WeakMap<FamilyState, Kept>();

function keptFor(state: FamilyState): Kept {
  let k = kept.get(state);
  if (!k || k.version !== state.version) {
    k = {
      version: state.version,
      byQuestion: new Map(),
      bytes: 0,
      missed: new Set(),
      wanted: new Set(),
    };
    kept.set(state, k);
  }
  return k;
}

/**
 * The answer kept for this question since the family's last write, if any. A miss is counted:
 * the answer to a question missed twice is kept by remember.
 */
export function recall(state: FamilyState, question: string): string | undefined {
  const k = keptFor(state);
  const hit = k.byQuestion.get(question)?.text;
  if (hit !== undefined) return hit;
  if (k.missed.has(question)) {
    if (k.wanted.size >= REMEMBERED.askedOnce) k.wanted.clear();
    k.wanted.add(question);
  } else {
    if (k.missed.size >= REMEMBERED.askedOnce) k.missed.clear();
    k.missed.add(question);
  }
  return undefined;
}

/**
 * Keeps an answer computed on the family's `version` to a question recall missed twice, unless
 * the family has written since (it may be stale) or it is larger than REMEMBERED.answerBytes;
 * the oldest answers make room.
 */
export function remember(
  state: FamilyState,
  version: number,
  question: string,
  answer: Answer,
): void {
  if (state.version !== version || answer.bytes > REMEMBERED.answerBytes) return;
  const k = keptFor(state);
  if (!k.wanted.delete(question)) return;
  k.missed.delete(question);
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
