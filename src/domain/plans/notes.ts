/**
 * Plan notes: short texts in the order they were written. The author is the
 * display name of the key's person, else the key's name; editing keeps author and place.
 * `showOnSharedPage` (default false) puts a note on the public plan page.
 */
import { Conflict, Invalid, NotFound } from '../shared/errors.js';
import { applyPatch, createFields, type CreateOf, type PatchOf } from '../shared/record.js';
import type { CommandContext, Decision, FamilyState, LogEvent } from '../shared/state.js';
import { putPlan, requirePlan } from './plans.js';
import { NOTE_FIELDS, NOTES_MAX, type NoteRecord, type PlanRecord } from './types.js';
import { noteView, type NoteView } from './views.js';
import { noChange } from '../shared/decision.js';

function noteEvent(
  type: 'plan.note.created' | 'plan.note.updated' | 'plan.note.deleted',
  state: FamilyState,
  planId: string,
  note: NoteRecord,
  before?: NoteRecord,
): LogEvent {
  const view = (n: NoteRecord): NoteView & { planId: string } => ({
    planId,
    ...noteView(state, n),
  });
  return { type, object: view(note), ...(before ? { previous: view(before) } : {}) };
}

export type CreateNoteInput = CreateOf<typeof NOTE_FIELDS>;

export function decideCreateNote(
  state: FamilyState,
  planId: string,
  input: CreateNoteInput,
  ctx: CommandContext,
): Decision<NoteRecord> {
  const plan = requirePlan(state, planId);
  if (plan.notes.length >= NOTES_MAX) throw new Conflict(`A plan holds at most ${NOTES_MAX} notes`);
  const at = ctx.now.toISOString();
  const note = createFields(NOTE_FIELDS, input, {
    id: ctx.newId('note'),
    authorPersonId: ctx.caller.personId,
    authorKeyName: ctx.caller.keyName?.trim() || 'API key',
    createdAt: at,
    updatedAt: at,
  });
  const next: PlanRecord = { ...plan, notes: [...plan.notes, note], updatedAt: at };
  return {
    result: note,
    changes: [putPlan(next)],
    events: [noteEvent('plan.note.created', state, plan.id, note)],
  };
}

function requireNote(plan: PlanRecord, noteId: string): NoteRecord {
  const n = plan.notes.find((x) => x.id === noteId);
  if (!n) throw new NotFound(`No note ${noteId} in plan ${plan.id}`);
  return n;
}

export type UpdateNoteInput = PatchOf<typeof NOTE_FIELDS>;

export function decideUpdateNote(
  state: FamilyState,
  planId: string,
  noteId: string,
  input: UpdateNoteInput,
  ctx: CommandContext,
): Decision<NoteRecord> {
  const plan = requirePlan(state, planId);
  const before = requireNote(plan, noteId);
  if (input.body === undefined && input.showOnSharedPage === undefined) {
    throw new Invalid('Send at least one of body, showOnSharedPage', [
      { path: [], message: 'must change at least one of body, showOnSharedPage' },
    ]);
  }
  const { next: note, changed } = applyPatch(NOTE_FIELDS, before, input);
  if (!changed) return noChange(before);
  const at = ctx.now.toISOString();
  note.updatedAt = at;
  const next: PlanRecord = {
    ...plan,
    notes: plan.notes.map((n) => (n === before ? note : n)),
    updatedAt: at,
  };
  return {
    result: note,
    changes: [putPlan(next)],
    events: [noteEvent('plan.note.updated', state, plan.id, note, before)],
  };
}

export function decideDeleteNote(
  state: FamilyState,
  planId: string,
  noteId: string,
  ctx: CommandContext,
): Decision<NoteRecord> {
  const plan = requirePlan(state, planId);
  const note = requireNote(plan, noteId);
  const next: PlanRecord = {
    ...plan,
    notes: plan.notes.filter((n) => n !== note),
    updatedAt: ctx.now.toISOString(),
  };
  return {
    result: note,
    changes: [putPlan(next)],
    events: [noteEvent('plan.note.deleted', state, plan.id, note)],
  };
}
