/**
 * People: household person profiles.
 */
import { route, defineRoutes } from '../route.js';
import {
  decideCreatePerson,
  decideDeletePerson,
  decideUpdatePerson,
  listPeople,
  personView,
} from '../../domain/people/people.js';
import {
  CreatePersonBody,
  PEOPLE_LIST_RESPONSE,
  PERSON_DELETE_RESPONSE,
  PERSON_RESPONSE,
  UpdatePersonBody,
} from './people.schema.js';

const tags = ['People'];

export default defineRoutes([
  route({
    method: 'get',
    path: '/people',
    tags,
    summary: 'List people',
    description: 'Active people in the order they were added; deleted people are left out.',
    response: PEOPLE_LIST_RESPONSE,
    handler: ({ family }) =>
      family.read((state) => ({ ok: true, people: listPeople(state).map(personView) })),
  }),
  route({
    method: 'post',
    path: '/people',
    tags,
    status: 201,
    body: CreatePersonBody,
    summary: 'Add a person',
    description:
      '`kind` defaults to adult; `role` repeats it and `displayName` is the familiar name, else the name.',
    response: PERSON_RESPONSE,
    handler: ({ body, family }) =>
      family.execute(
        (state, ctx) => decideCreatePerson(state, body, ctx),
        (p) => ({ ok: true, person: personView(p) }),
      ),
  }),
  route({
    method: 'patch',
    path: '/people/:personId',
    tags,
    body: UpdatePersonBody,
    summary: 'Update a person',
    description:
      'Send only the fields to change; familiarName, email and phone may be null to remove them. A deleted person answers 404.',
    response: PERSON_RESPONSE,
    handler: ({ params, body, family }) =>
      family.execute(
        (state, ctx) => decideUpdatePerson(state, params.personId, body, ctx),
        (p) => ({ ok: true, person: personView(p) }),
      ),
  }),
  route({
    method: 'delete',
    path: '/people/:personId',
    tags,
    summary: 'Delete a person',
    description:
      'Hides the person from lists and from new references (which then answer 400); records that already name them keep the id.',
    response: PERSON_DELETE_RESPONSE,
    handler: ({ params, family }) =>
      family.execute(
        (state, ctx) => decideDeletePerson(state, params.personId, ctx),
        (p) => ({ ok: true, personId: p.id }),
      ),
  }),
]);
