/**
 * Household person profiles. A person is soft-deleted: `deletedAt` hides them from
 * lists and from new references (entries, events, reminders), while records that already point
 * at them stay readable.
 */
import { NotFound } from '../shared/errors.js';
import { S } from '../shared/schema.js';
import {
  applyPatch,
  createFields,
  field,
  timestamp,
  viewFields,
  type CreateOf,
  type Derived,
  type PatchOf,
  type RecordOf,
  type ViewOf,
} from '../shared/record.js';
import type { CommandContext, Decision, FamilyState } from '../shared/state.js';
import type { EventData } from '../calendar/types.js';
import { noChange } from '../shared/decision.js';
import { canonicalLocale, LOCALE_MAX_LENGTH } from '../i18n/locale.js';

export const PEOPLE = 'people';

export const PERSON_KINDS = ['adult', 'child', 'helper', 'caregiver', 'other'] as const;
export type PersonKind = (typeof PERSON_KINDS)[number];

const EMAIL_RE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const PHONE_RE = /^\+?[0-9][0-9 ()./-]{3,30}$/;
const trim = (v: string): string => v.trim();

/**
 * Every field of a person, once (src/domain/shared/record.ts): the type, the request bodies,
 * patching, the view and the OpenAPI schema come from here. A person is soft-deleted.
 */
export const PERSON_FIELDS = {
  id: field(S.string(), { create: 'never', patch: 'never', view: 'always' }),
  name: field(S.string({ min: 1, max: 200 }), {
    create: 'required',
    patch: 'value',
    view: 'always',
    clean: trim,
    check: (v) => v !== '' || 'must not be blank',
  }),
  /** The contract's word; the view repeats it as `role` (the older name of the same value). */
  kind: field(S.enums(PERSON_KINDS), {
    create: 'optional',
    patch: 'value',
    default: 'adult',
    view: 'always',
  }),
  familiarName: field(
    S.string({
      min: 1,
      max: 200,
      description: 'Shown instead of the name when set; null removes it',
    }),
    {
      create: 'optional',
      patch: 'value',
      nullable: true,
      view: 'always',
      clean: trim,
      check: (v) => v !== '' || 'must not be blank (send null to remove it)',
    },
  ),
  email: field(S.string({ min: 3, max: 254, format: 'email' }), {
    create: 'optional',
    patch: 'value',
    nullable: true,
    view: 'always',
    clean: trim,
    check: (v) => EMAIL_RE.test(v) || 'must be an email address such as ana@example.com',
  }),
  phone: field(S.string({ min: 4, max: 32, description: 'For sms notifications (extension)' }), {
    create: 'optional',
    patch: 'value',
    nullable: true,
    view: 'always',
    clean: trim,
    check: (v) => PHONE_RE.test(v) || 'must be a phone number such as +44 20 7946 0958',
  }),
  /** What is sent to them is in this locale; null: the family's (docs/i18n.md). */
  locale: field(
    S.string({
      min: 1,
      max: LOCALE_MAX_LENGTH,
      description:
        "BCP 47 language tag (de-DE, en-US) of what is sent to them; null: the family's locale",
    }),
    {
      create: 'optional',
      patch: 'value',
      nullable: true,
      view: 'always',
      clean: (v) => canonicalLocale(v.trim()) ?? v,
      check: (v) => canonicalLocale(v) === v || 'must be a BCP 47 language tag such as de-DE',
    },
  ),
  createdAt: field(timestamp, { create: 'never', patch: 'never', view: 'always' }),
  updatedAt: field(timestamp, { create: 'never', patch: 'never', view: 'always' }),
  /** Only on a deleted person (the `person.deleted` change-log record). */
  deletedAt: field(timestamp, { create: 'never', patch: 'never', nullable: true, view: 'whenSet' }),
};

export type Person = RecordOf<typeof PERSON_FIELDS>;
export type PersonInput = CreateOf<typeof PERSON_FIELDS>;
export type PersonPatch = PatchOf<typeof PERSON_FIELDS>;

/** What the answer shows of a person besides its fields. */
export const PERSON_DERIVED = {
  displayName: {
    after: 'phone',
    schema: { type: 'string', description: 'familiarName, else name' },
    of: (p: Person) => p.familiarName ?? p.name,
  },
  role: {
    after: 'displayName',
    schema: { type: 'string', enum: [...PERSON_KINDS], description: 'The same as kind' },
    of: (p: Person) => p.kind,
  },
} satisfies Record<string, Derived<Person>>;

/** A person as the API shows it: `displayName` = familiarName or name, `role` = kind. */
export type PersonView = ViewOf<typeof PERSON_FIELDS> & { displayName: string; role: PersonKind };

export function personView(p: Person): PersonView {
  return viewFields(PERSON_FIELDS, p, PERSON_DERIVED) as PersonView;
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

export function decideCreatePerson(
  _state: FamilyState,
  input: PersonInput,
  ctx: CommandContext,
): Decision<Person> {
  const at = ctx.now.toISOString();
  const person = createFields(PERSON_FIELDS, input, {
    id: ctx.newId('person'),
    createdAt: at,
    updatedAt: at,
  });
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
  input: PersonPatch,
  ctx: CommandContext,
): Decision<Person> {
  const before = requirePerson(state, id);
  const { next, changed } = applyPatch(PERSON_FIELDS, before, input);
  if (!changed) return noChange(before);
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
