/**
 * The assistant's tools (docs/decisions.md, "Assistant surface"): each one is a REST route, named
 * by method and path, with a description written for a model. A tool never has logic of its own;
 * the route's validation, scope, actor and change log decide everything (see dispatch.ts).
 */
import type { Method } from '../door/route.js';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolSpec {
  name: string;
  title: string;
  method: Method;
  /** Relative to /api/v1/families/:familySlug, as the route declares it. */
  path: string;
  /** What the model reads; `{tz}` becomes the family's time zone. */
  description: string;
  /** Only these query/body fields are offered (default: all the route takes). */
  only?: string[];
  /** Fields the tool requires although the route leaves them optional. */
  require?: string[];
  annotations: ToolAnnotations;
}

const read = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
const create = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
const update = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};
const remove = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};
const lookup = { ...read, openWorldHint: true };

const DATES =
  "Dates are YYYY-MM-DD and times HH:mm (24-hour), local to the family's time zone {tz}.";
/** What the event tools add: an event may be written in a zone of its own. */
const EVENT_DATES =
  "Dates are YYYY-MM-DD and times HH:mm (24-hour), local to the family's time zone {tz} unless the event has its own `timeZone` (an IANA name such as America/New_York): its date and times are then that zone's, shown as written. Every listed event also carries `startsAt`, the instant it starts in UTC.";

export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'get_household_overview',
    title: 'Household overview',
    method: 'get',
    path: '/context',
    only: [],
    annotations: read,
    description: `What is coming up in the household: the calendar occurrences of the next days, open chores (soonest due first) and the people. Use it first to get your bearings. "Today" is in the family's time zone {tz}.`,
  },
  {
    name: 'search_household',
    title: 'Search the household',
    method: 'get',
    path: '/context',
    only: ['query', 'limit'],
    require: ['query'],
    annotations: read,
    description: `Search entries, calendar events, people and collections at once by words (prefixes and small typos match; case and accents are ignored); results are ranked best first. ${DATES}`,
  },
  {
    name: 'list_collections',
    title: 'List collections',
    method: 'get',
    path: '/trackers',
    annotations: read,
    description:
      "List the family's collections (lists, chores, trackers, calendars) with their keys and fields. A collection's `key` is the collectionKey the entry tools take.",
  },
  {
    name: 'list_entries',
    title: 'List entries',
    method: 'get',
    path: '/trackers/:collectionKey/entries',
    annotations: read,
    description: `List the entries of one collection (e.g. the shopping list), optionally filtered by words or status; pages with limit and nextCursor. ${DATES}`,
  },
  {
    name: 'create_entry',
    title: 'Add an entry',
    method: 'post',
    path: '/trackers/:collectionKey/entries',
    annotations: create,
    description: `Add an entry to a collection (e.g. an item on a list or a chore). \`data\` holds the collection's own fields by key (see list_collections). Not for calendar collections: use create_event. ${DATES}`,
  },
  {
    name: 'update_entry',
    title: 'Change an entry',
    method: 'patch',
    path: '/trackers/:collectionKey/entries/:entryId',
    annotations: update,
    description: `Change an entry: only the fields given change; \`data\` is merged key by key; \`status\` archives or reopens it. ${DATES}`,
  },
  {
    name: 'delete_entry',
    title: 'Delete an entry',
    method: 'delete',
    path: '/trackers/:collectionKey/entries/:entryId',
    annotations: remove,
    description: 'Delete an entry from a collection for good.',
  },
  {
    name: 'list_events',
    title: 'List calendar events',
    method: 'get',
    path: '/calendar/events',
    annotations: read,
    description: `List calendar occurrences (repeating events expanded) between two dates of the family's calendar, optionally filtered by words; pages with limit and nextCursor. ${EVENT_DATES}`,
  },
  {
    name: 'create_event',
    title: 'Add a calendar event',
    method: 'post',
    path: '/calendar/events',
    annotations: create,
    description: `Add an event to the family calendar: a title and a date, with a start time (or allDay), optionally an end, a place, who is responsible, repetition and reminders; \`timeZone\` for an event that happens in another zone (a call at 09:00 New York time). ${EVENT_DATES}`,
  },
  {
    name: 'update_event',
    title: 'Change a calendar event',
    method: 'patch',
    path: '/calendar/events/:eventId',
    annotations: update,
    description: `Change a calendar event: only the fields given change; null clears an optional field (timeZone null: back to the family's zone). For a repeating event, editScope "occurrence" with occurrenceDate changes one day, "series" all of them. ${EVENT_DATES}`,
  },
  {
    name: 'delete_event',
    title: 'Delete a calendar event',
    method: 'delete',
    path: '/calendar/events/:eventId',
    annotations: remove,
    description: `Delete a calendar event; for a repeating event, editScope "occurrence" with occurrenceDate removes one day only. ${EVENT_DATES}`,
  },
  {
    name: 'list_people',
    title: 'List people',
    method: 'get',
    path: '/people',
    annotations: read,
    description:
      "List the household's people with their ids (personId), names and roles; event and entry fields that name a person take these ids.",
  },
  {
    name: 'list_plans',
    title: 'List plans',
    method: 'get',
    path: '/plans',
    annotations: read,
    description: "List the family's plans (trips, parties, projects being planned) with their ids.",
  },
  {
    name: 'get_plan',
    title: 'Read a plan',
    method: 'get',
    path: '/plans/:planId',
    annotations: read,
    description: `Read one plan with its notes, polls (and their options and votes) and linked events. ${DATES}`,
  },
  {
    name: 'create_plan',
    title: 'Start a plan',
    method: 'post',
    path: '/plans',
    annotations: create,
    description:
      'Start a plan for something the family is organizing, with a title and optionally a description (prose).',
  },
  {
    name: 'add_plan_note',
    title: 'Add a note to a plan',
    method: 'post',
    path: '/plans/:planId/notes',
    annotations: create,
    description: "Add a note (plain text) to a plan, written as the calling key's person.",
  },
  {
    name: 'vote_in_poll',
    title: "Vote in a plan's poll",
    method: 'post',
    path: '/plans/:planId/polls/:pollId/vote',
    annotations: { ...update, destructiveHint: false },
    description:
      "Vote for one option of a plan's poll as the calling key's person (voting again replaces the earlier vote). get_plan shows the poll and option ids.",
  },
  {
    name: 'send_notification',
    title: 'Send a notification',
    method: 'post',
    path: '/notifications',
    annotations: { ...create, openWorldHint: true },
    description:
      "Send a notification to the household's configured channels (push, e-mail, SMS): a short title and optionally a body. People receive it on their devices, so send only what the user asked for.",
  },
  {
    name: 'get_weather',
    title: 'Weather forecast',
    method: 'get',
    path: '/weather',
    annotations: lookup,
    description:
      'The weather forecast for a place (a place name, or "lat,lon") on a day, optionally at an hour. Dates are YYYY-MM-DD and times HH:mm, local to that place; the default date is today there.',
  },
  {
    name: 'web_search',
    title: 'Search the web',
    method: 'get',
    path: '/web/search',
    annotations: lookup,
    description: 'Search the web and get titles, addresses and snippets of the best results.',
  },
  {
    name: 'read_web_page',
    title: 'Read a web page',
    method: 'get',
    path: '/web/page',
    annotations: lookup,
    description:
      'Fetch a public web page (http or https address) and get its readable text, e.g. a recipe or an opening-hours page found with web_search.',
  },
];
