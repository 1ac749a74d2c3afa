/**
 * Plan notes: the author is the display name of the key's person, else the key's
 * name; editing keeps author and place; `showOnSharedPage` puts a note on the public page.
 */
import { route, defineRoutes } from '../route.js';
import { decideCreateNote, decideDeleteNote, decideUpdateNote } from '../../domain/plans/notes.js';
import { noteView } from '../../domain/plans/views.js';
import {
  CreateNoteBody,
  NOTE_CREATE_RESPONSE,
  NOTE_DELETE_RESPONSE,
  NOTE_UPDATE_RESPONSE,
  UpdateNoteBody,
} from './plans.schema.js';
import { PLAN_TAGS as tags } from './plans.js';

const base = '/plans/:planId/notes';

export default defineRoutes([
  route({
    method: 'post',
    path: base,
    tags,
    status: 201,
    body: CreateNoteBody,
    summary: 'Add a note to a plan',
    description: 'Added at the end. `showOnSharedPage` defaults to false.',
    response: NOTE_CREATE_RESPONSE,
    handler: ({ params, body, family }) =>
      family.execute(
        (s, ctx) => decideCreateNote(s, params.planId, body, ctx),
        (n, s) => ({ ok: true, noteId: n.id, note: noteView(s, n) }),
      ),
  }),
  route({
    method: 'patch',
    path: `${base}/:noteId`,
    tags,
    body: UpdateNoteBody,
    summary: 'Edit a note',
    description:
      "At least one of body, showOnSharedPage; the author and the note's place are kept.",
    response: NOTE_UPDATE_RESPONSE,
    handler: ({ params, body, family }) =>
      family.execute(
        (s, ctx) => decideUpdateNote(s, params.planId, params.noteId, body, ctx),
        (n, s) => ({
          ok: true,
          noteId: n.id,
          onSharedPage: n.showOnSharedPage,
          note: noteView(s, n),
        }),
      ),
  }),
  route({
    method: 'delete',
    path: `${base}/:noteId`,
    tags,
    summary: 'Delete a note',
    response: NOTE_DELETE_RESPONSE,
    handler: ({ params, family }) =>
      family.execute(
        (s, ctx) => decideDeleteNote(s, params.planId, params.noteId, ctx),
        (n) => ({ ok: true, noteId: n.id }),
      ),
  }),
]);
