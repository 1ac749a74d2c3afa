/**
 * What fired once per occurrence (a reminder, a leave-by, a coverage alert), so an edit that
 * moves an occurrence after its reminder went out does not send it again. Pruned with the
 * notifications after 30 days.
 */
import type { FamilyState, RecordChange } from '../shared/state.js';
import { MARKS } from './types.js';

export const markId = {
  reminder: (eventId: string, occurrenceDate: string, index: number) =>
    `rem:${eventId}:${occurrenceDate}:${index}`,
  leaveBy: (eventId: string, occurrenceDate: string) => `leave:${eventId}:${occurrenceDate}`,
  coverage: (eventId: string, occurrenceDate: string) => `cov:${eventId}:${occurrenceDate}`,
};

export function isMarked(state: FamilyState, id: string): boolean {
  return state.get(MARKS, id) !== undefined;
}

export function mark(id: string, at: Date): RecordChange {
  return { table: MARKS, id, value: { at: at.toISOString() } };
}
