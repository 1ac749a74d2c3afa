/**
 * The JSON Schema of what a family display shows (src/domain/displays/view.ts): its page's JSON
 * form and its stream's `display` events. Ids are present on interactive displays only.
 */
import { named, type JsonSchema } from '../../door/schema.js';

const nullable = (type: string) => ({ type: [type, 'null'] });
const str = { type: 'string' };
const strings = { type: 'array', items: str };
const onlyInteractive = (schema: JsonSchema, what: string): JsonSchema => ({
  ...schema,
  description: `${what} (interactive displays only)`,
});
const ATTENDANCE = { type: 'string', enum: ['going', 'maybe', 'out'] };

const WEATHER_DAY = {
  type: ['object', 'null'],
  required: ['date', 'summary', 'minC', 'maxC', 'precipitationProbability'],
  properties: {
    date: { type: 'string', format: 'date' },
    summary: nullable('string'),
    minC: nullable('number'),
    maxC: nullable('number'),
    precipitationProbability: nullable('number'),
  },
};

const CHORE = {
  type: 'object',
  required: ['title', 'due', 'overdue', 'who'],
  properties: {
    id: onlyInteractive(str, 'The entry'),
    title: str,
    due: { type: ['string', 'null'], format: 'date' },
    overdue: { type: 'boolean' },
    who: strings,
  },
};

const EVENT = {
  type: 'object',
  required: ['title', 'time', 'endTime', 'endDate', 'where', 'going', 'leaveBy', 'calendar'],
  properties: {
    id: onlyInteractive(str, 'The event (of a series: the series)'),
    occurrence: onlyInteractive(
      { type: ['string', 'null'], format: 'date' },
      "The occurrence's original date (a one-off event's own date)",
    ),
    title: str,
    time: nullable('string'),
    endTime: {
      type: ['string', 'null'],
      description: '`HH:mm` local: the end time, or the start plus `durationMinutes`',
    },
    endDate: nullable('string'),
    where: nullable('string'),
    going: { ...strings, description: 'Familiar names' },
    leaveBy: { type: ['string', 'null'], description: '`HH:mm` local, with a travel plan' },
    calendar: str,
    answers: onlyInteractive(
      { type: 'object', additionalProperties: ATTENDANCE },
      "Each of the display's people's answer, by person id",
    ),
  },
};

const LIST = {
  type: 'object',
  required: ['key', 'name', 'items'],
  properties: {
    key: { type: 'string', description: 'The collection key' },
    name: str,
    items: {
      type: 'array',
      description: 'Open items in the order they were added, then those ticked off today',
      items: {
        type: 'object',
        required: ['title', 'done'],
        properties: {
          id: onlyInteractive(str, 'The entry'),
          title: str,
          done: { type: 'boolean' },
        },
      },
    },
  },
};

const POLL = {
  type: 'object',
  required: ['plan', 'question', 'options'],
  properties: {
    planId: onlyInteractive(str, 'The plan'),
    pollId: onlyInteractive(str, 'The poll'),
    plan: { type: 'string', description: "The plan's title" },
    question: str,
    options: {
      type: 'array',
      items: {
        type: 'object',
        required: ['label', 'voters'],
        properties: {
          id: onlyInteractive(str, 'The option'),
          label: { type: 'string', description: 'Its label, or its date and time' },
          voters: { ...strings, description: 'Familiar names of who chose it' },
        },
      },
    },
    votes: onlyInteractive(
      { type: 'object', additionalProperties: str },
      "Each of the display's people's vote: person id → option id",
    ),
  },
};

const DAY = {
  type: 'object',
  required: ['date', 'label', 'events', 'weather'],
  properties: {
    date: { type: 'string', format: 'date' },
    label: { type: 'string', description: '"Today · Thursday 26 November"' },
    weather: WEATHER_DAY,
    events: { type: 'array', items: EVENT },
  },
};

/** What a display shows, as its page's JSON form and its stream's `display` events carry it. */
export const DISPLAY_CONTENT_SCHEMA: JsonSchema = named('DisplayContent', {
  type: 'object',
  required: [
    'ok',
    'name',
    'family',
    'timezone',
    'today',
    'interactive',
    'night',
    'days',
    'chores',
    'lists',
    'polls',
    'people',
    'weatherPlace',
  ],
  properties: {
    ok: { const: true },
    name: str,
    family: { type: 'string', description: "The family's name" },
    timezone: { type: 'string', description: 'IANA zone: every date and time is in it' },
    today: { type: 'string', format: 'date' },
    interactive: { type: 'boolean', description: 'Whether the page offers its actions' },
    night: {
      type: ['object', 'null'],
      description: 'When the page dims (`HH:mm` local; over midnight when `to` < `from`)',
      required: ['from', 'to'],
      properties: { from: str, to: str },
    },
    days: { type: 'array', items: DAY },
    chores: {
      type: 'object',
      required: ['due', 'done'],
      properties: {
        due: { type: 'array', items: CHORE },
        done: { type: 'array', items: CHORE, description: 'Ticked off today' },
      },
    },
    lists: { type: 'array', items: LIST },
    polls: { type: 'array', items: POLL, description: 'Open date polls of plans' },
    people: {
      type: 'array',
      description: 'Who an interactive display answers and votes for; empty otherwise',
      items: { type: 'object', required: ['id', 'name'], properties: { id: str, name: str } },
    },
    weatherPlace: { type: ['string', 'null'] },
  },
});
