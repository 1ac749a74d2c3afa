/**
 * The calendar event's one field table (EVENT_FIELDS, src/domain/calendar/types.ts) and what
 * is built from it: the create and PATCH request structs, the CalendarEvent response schema,
 * the key lists and the view. The compiler holds the table and the http table to the same
 * names and types; these cases hold the built structs and schema to the table's facts.
 */
import { expect } from 'chai';
import type { Struct } from 'superstruct';
import {
  EVENT_FIELDS,
  EVENT_KEYS,
  FEED_OWNED,
  NULLABLE_ON_PATCH,
  SHOWN_ALWAYS,
  type EventFieldName,
} from '../../src/domain/calendar/types.js';
import { viewData } from '../../src/domain/calendar/events.js';
import {
  CreateEventBody,
  EVENT_SCHEMA,
  UpdateEventBody,
} from '../../src/http/routes/calendar.schema.js';
import { toJsonSchema, type JsonSchema } from '../../src/door/schema.js';
import { validateInput } from '../../src/door/validate.js';
import { Invalid, type Issue } from '../../src/domain/shared/errors.js';

const NAMES = Object.keys(EVENT_FIELDS) as EventFieldName[];
const BASE = { title: 'Swim', date: '2026-11-24' };

interface ObjectSchema {
  properties: Record<string, JsonSchema>;
  required?: string[];
}
const createSchema = toJsonSchema(CreateEventBody) as unknown as ObjectSchema;
const updateSchema = toJsonSchema(UpdateEventBody) as unknown as ObjectSchema;
const dataSchema = (EVENT_SCHEMA as unknown as { properties: { data: ObjectSchema } }).properties
  .data;

/** The issues a body gets from a struct, or [] when it is accepted. */
function issuesOf(body: unknown, struct: Struct<any, any>): Issue[] {
  try {
    validateInput(body, struct);
    return [];
  } catch (err) {
    if (!(err instanceof Invalid)) throw err;
    return err.issues ?? [];
  }
}

describe('calendar event fields (one table)', () => {
  it('lists the event fields the contract names, with date the only one a create must send', () => {
    expect(NAMES).to.include.members([
      'date',
      'time',
      'endDate',
      'endTime',
      'allDay',
      'reminders',
      'travelPlan',
      'description',
    ]);
    expect(NAMES.filter((k) => EVENT_FIELDS[k].create === 'required')).to.deep.equal(['date']);
  });

  it('puts every field a create may send in the create body, required exactly when the table says so', () => {
    const sent = NAMES.filter((k) => EVENT_FIELDS[k].create !== 'never');
    expect(
      Object.keys(createSchema.properties).filter((k) => NAMES.includes(k as EventFieldName)),
    ).to.deep.equal(sent);
    expect(createSchema.required).to.deep.equal([
      'title',
      ...NAMES.filter((k) => EVENT_FIELDS[k].create === 'required'),
    ]);
    // Around the fields: the title first, calendarKey and data before the repeat fields.
    const keys = Object.keys(createSchema.properties);
    expect(keys[0]).to.equal('title');
    expect(
      keys.slice(keys.indexOf('repeatFrequency') - 2, keys.indexOf('repeatFrequency')),
    ).to.deep.equal(['calendarKey', 'data']);
  });

  it('refuses a field no request may send as an unknown field, on create and on PATCH', () => {
    const readOnly = NAMES.filter((k) => EVENT_FIELDS[k].create === 'never');
    expect(readOnly).to.deep.equal(['description']);
    for (const k of readOnly) {
      expect(issuesOf({ ...BASE, [k]: 'x' }, CreateEventBody), k).to.deep.equal([
        { path: [k], message: 'is not a known field' },
      ]);
      expect(issuesOf({ [k]: 'x' }, UpdateEventBody), k).to.deep.equal([
        { path: [k], message: 'is not a known field' },
      ]);
    }
  });

  it('requires date on create and names it when it is missing', () => {
    expect(issuesOf({ title: 'Swim' }, CreateEventBody)).to.deep.equal([
      { path: ['date'], message: 'is required' },
    ]);
    expect(issuesOf(BASE, CreateEventBody)).to.deep.equal([]);
  });

  it('puts every field a PATCH may send in the update body, none of them required', () => {
    const sent = NAMES.filter((k) => EVENT_FIELDS[k].patch !== 'never');
    expect(
      Object.keys(updateSchema.properties).filter((k) => NAMES.includes(k as EventFieldName)),
    ).to.deep.equal(sent);
    expect(updateSchema.required ?? []).to.deep.equal([]);
  });

  it('lets a PATCH unset exactly the nullable fields with null (and the travel plan, whose null is none)', () => {
    expect(NULLABLE_ON_PATCH).to.deep.equal(
      NAMES.filter((k) => EVENT_FIELDS[k].patch === 'nullable'),
    );
    for (const k of NAMES.filter((n) => EVENT_FIELDS[n].patch !== 'never')) {
      const issues = issuesOf({ [k]: null }, UpdateEventBody);
      if (EVENT_FIELDS[k].patch === 'nullable' || k === 'travelPlan')
        expect(issues, k).to.deep.equal([]);
      else
        expect(
          issues.map((i) => i.path),
          k,
        ).to.deep.equal([[k]]);
    }
    // The schema says so too: a nullable field is "a value or null".
    for (const k of NULLABLE_ON_PATCH) {
      expect(updateSchema.properties[k].anyOf, k).to.deep.equal([
        createSchema.properties[k],
        { type: 'null' },
      ]);
    }
  });

  it('takes null on create for no field but the travel plan', () => {
    for (const k of NAMES.filter((n) => EVENT_FIELDS[n].create === 'optional')) {
      const issues = issuesOf({ ...BASE, [k]: null }, CreateEventBody);
      if (k === 'travelPlan') expect(issues, k).to.deep.equal([]);
      else
        expect(
          issues.map((i) => i.path),
          k,
        ).to.deep.equal([[k]]);
    }
  });

  it('merges a merge field key by key on PATCH (null drops one key), which a create refuses', () => {
    const merged = NAMES.filter((k) => EVENT_FIELDS[k].patch === 'merge');
    expect(merged).to.deep.equal(['attendance']);
    expect(
      issuesOf({ attendance: { person_a: null, person_b: 'going' } }, UpdateEventBody),
    ).to.deep.equal([]);
    expect(
      issuesOf({ ...BASE, attendance: { person_a: null } }, CreateEventBody).map((i) => i.path),
    ).to.deep.equal([['attendance', 'person_a']]);
  });

  it('describes every table field in the CalendarEvent schema, in table order, requiring exactly those the view always shows', () => {
    expect(dataSchema.required).to.deep.equal(SHOWN_ALWAYS);
    expect(SHOWN_ALWAYS).to.deep.equal(NAMES.filter((k) => EVENT_FIELDS[k].view === 'always'));
    const described = Object.keys(dataSchema.properties);
    expect(described.filter((k) => !NAMES.includes(k as EventFieldName))).to.deep.equal([]);
    expect(described).to.include.members(SHOWN_ALWAYS);
    // Every field, in table order, as the view shows them.
    expect(described).to.deep.equal(NAMES);
    // A field without a response schema of its own is described by what a request sends.
    expect(dataSchema.properties.durationMinutes).to.include({
      type: 'integer',
      minimum: 15,
      maximum: 1440,
    });
    expect(dataSchema.properties.description).to.include({ type: 'string' });
  });

  it('shows the always-shown fields in the view, null when unset, and the others only when set', () => {
    const view = viewData({ date: '2026-11-24', where: 'Pool' }, 'Europe/Berlin');
    expect(view).to.deep.equal({
      date: '2026-11-24',
      time: null,
      endDate: null,
      endTime: null,
      allDay: true,
      where: 'Pool',
    });
    expect(Object.keys(view).slice(0, SHOWN_ALWAYS.length)).to.deep.equal(SHOWN_ALWAYS);
  });

  it('keeps every field name out of custom data keys and lets feeds own exactly the fields the table gives them', () => {
    for (const k of NAMES) expect(EVENT_KEYS.has(k), k).to.equal(true);
    const owned = NAMES.filter((k) => EVENT_FIELDS[k].feed === 'owned');
    expect(NAMES.filter((k) => FEED_OWNED.has(k))).to.deep.equal(owned);
    expect(owned)
      .to.include.members(['date', 'time', 'repeatFrequency', 'description'])
      .and.not.include('note');
  });
});
