/**
 * Household person profiles. A person is soft-deleted: `deletedAt` hides them from
 * lists and from new references (entries, events, reminders), while records that already point
 * at them stay readable.
 */
import { NotFound, failOnIssues } from '../shared/errors.js';
import type { CommandContext, Decision, FamilyState } from '../shared/state.js';
import type { EventData } from '../calendar/types.js';
import { noChange } from '../shared/decision.js';

export const PEOPLE = 'people';

export const PERSON_KINDS = ['adult', 'child', 'helper', 'caregiver', 'other'] as const;
export type PersonKind = (typeof PERSON_KINDS)[number];

export interface Person {
  id: string;
  name: string;
  kind: PersonKind;
  familiarName: string | null;
  email: string | null;
  phone: string | null;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

/** A person as the API shows it: `displayName` = familiarName or name, `role` = kind. */
export type PersonView = Omit<Person, 'deletedAt'> & {
  displayName: string;
  role: PersonKind;
  /** Only on a deleted person (the `person.deleted` change-log record). */
  deletedAt?: string;
};

export function personView(p: Person): PersonView {
  return {
    id: p.id,
    name: p.name,
    kind: p.kind,
    familiarName: p.familiarName,
    email: p.email,
    phone: p.phone,
    displayName: p.familiarName ?? p.name,
    role: p.kind,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    ...(p.deletedAt ? { deletedAt: p.deletedAt } : {}),
  };
}

/** The person if it exists and is not deleted: the test for every new reference to a person. */
export function activePerson(state: FamilyState, id: string): Person | undefined {
  const p = state.get<Person>(PEOPLE, id);
  return p && p.deletedAt === null ? p : undefined;
}

/** Active people in the order they were added. */
export function listPeople(state: FamilyState): Person[] {
  return state.derived('people:active', () => {
    const out: Person[] = [];
    for (const p of state.table<Person>(PEOPLE).values()) if (p.deletedAt === null) out.push(p);
    return out;
  });
}

export interface PersonInput {
  name?: string;
  kind?: PersonKind;
  familiarName?: string | null;
  email?: string | null;
  phone?: string | null;
}

const EMAIL_RE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const PHONE_RE = /^\+?[0-9][0-9 ()./-]{3,30}$/;

/** Trims the text fields and checks what the request schema cannot (blank names, formats). */
function clean(input: PersonInput): PersonInput {
  const out: PersonInput = { ...input };
  const issues: { path: string[]; message: string }[] = [];
  if (out.name !== undefined) {
    out.name = out.name.trim();
    if (!out.name) issues.push({ path: ['name'], message: 'must not be blank' });
  }
  if (typeof out.familiarName === 'string') {
    out.familiarName = out.familiarName.trim();
    if (!out.familiarName)
      issues.push({
        path: ['familiarName'],
        message: 'must not be blank (send null to remove it)',
      });
  }
  if (typeof out.email === 'string') {
    out.email = out.email.trim();
    if (!EMAIL_RE.test(out.email))
      issues.push({ path: ['email'], message: 'must be an email address such as ana@example.com' });
  }
  if (typeof out.phone === 'string') {
    out.phone = out.phone.trim();
    if (!PHONE_RE.test(out.phone))
      issues.push({ path: ['phone'], message: 'must be a phone number such as +44 20 7946 0958' });
  }
  failOnIssues(issues);
  return out;
}

export function decideCreatePerson(
  _state: FamilyState,
  input: PersonInput & { name: string },
  ctx: CommandContext,
): Decision<Person> {
  const c = clean(input);
  const at = ctx.now.toISOString();
  const person: Person = {
    id: ctx.newId('person'),
    name: c.name!,
    kind: c.kind ?? 'adult',
    familiarName: c.familiarName ?? null,
    email: c.email ?? null,
    phone: c.phone ?? null,
    createdAt: at,
    updatedAt: at,
    deletedAt: null,
  };
  return {
    result: person,
    changes: [{ table: PEOPLE, id: person.id, value: person }],
    events: [{ type: 'person.created', object: personView(person) }],
  };
}

function requirePerson(state: FamilyState, id: string): Person {
  const p = activePerson(state, id);
  if (!p) throw new NotFound(`No person ${id} in this family`);
  return p;
}

/** Changes only the fields sent; a change to nothing writes nothing and logs nothing. */
export function decideUpdatePerson(
  state: FamilyState,
  id: string,
  input: PersonInput,
  ctx: CommandContext,
): Decision<Person> {
  const before = requirePerson(state, id);
  const c = clean(input);
  const next: Person = { ...before };
  if (c.name !== undefined) next.name = c.name;
  if (c.kind !== undefined) next.kind = c.kind;
  if (c.familiarName !== undefined) next.familiarName = c.familiarName;
  if (c.email !== undefined) next.email = c.email;
  if (c.phone !== undefined) next.phone = c.phone;
  const same =
    next.name === before.name &&
    next.kind === before.kind &&
    next.familiarName === before.familiarName &&
    next.email === before.email &&
    next.phone === before.phone;
  if (same) return noChange(before);
  next.updatedAt = ctx.now.toISOString();
  return {
    result: next,
    changes: [{ table: PEOPLE, id, value: next }],
    events: [{ type: 'person.updated', object: personView(next), previous: personView(before) }],
  };
}

export function decideDeletePerson(
  state: FamilyState,
  id: string,
  ctx: CommandContext,
): Decision<Person> {
  const before = requirePerson(state, id);
  const at = ctx.now.toISOString();
  const gone: Person = { ...before, deletedAt: at, updatedAt: at };
  return {
    result: gone,
    changes: [{ table: PEOPLE, id, value: gone }],
    events: [{ type: 'person.deleted', object: personView(gone) }],
  };
}

/** Who is going to an event: marked going, or not marked while everyone is going. */
export function goingIds(state: FamilyState, d: EventData): Set<string> {
  const ids = new Set<string>();
  for (const [id, a] of Object.entries(d.attendance ?? {})) if (a === 'going') ids.add(id);
  if (d.everyoneAttendance === 'going') {
    for (const p of state.table<{ id: string; deletedAt: string | null }>('people').values()) {
      if (p.deletedAt === null && d.attendance?.[p.id] === undefined) ids.add(p.id);
    }
  }
  return ids;
}
