/**
 * What a family display shows (docs/display.md), described once: `DISPLAY_CONTENT` is both the
 * TypeScript type the view code fills (view.ts, viewItems.ts) and the JSON Schema the OpenAPI
 * document publishes (`DisplayContent`) for the page's JSON form and its stream's `display`
 * events (src/domain/shared/shape.ts). Ids are present on interactive displays only.
 *
 * The content is our own wire and keeps its words: an event's `going`, a chore's `who` and a poll
 * option's `voters` are lists of people's display names (not ids); `people` is `{id, name}`.
 */
import { J, type ShapeOf, type Shape } from '../shared/shape.js';

const text = J.string();
const names = (description: string) => J.array(J.string(), description);
const onlyInteractive = <T>(shape: Shape<T>, what: string): Shape<T> =>
  J.described(shape, `${what} (interactive displays only)`);
const ATTENDANCE = J.enums(['going', 'maybe', 'out']);

const WEATHER_DAY = J.object({
  date: J.date(),
  summary: J.nullable(J.string()),
  minC: J.nullable(J.number()),
  maxC: J.nullable(J.number()),
  precipitationProbability: J.nullable(J.number()),
});

const CHORE = J.object(
  {
    title: text,
    due: J.nullable(J.date()),
    overdue: J.boolean(),
    who: J.array(J.string()),
  },
  { id: onlyInteractive(text, 'The entry') },
);

const EVENT = J.object(
  {
    title: text,
    time: J.nullable(J.string()),
    endTime: J.nullable(
      J.string(),
      '`HH:mm` local: the end time, or the start plus `durationMinutes`',
    ),
    endDate: J.nullable(J.string()),
    where: J.nullable(J.string()),
    going: names('Familiar names'),
    leaveBy: J.nullable(J.string(), '`HH:mm` local, with a travel plan'),
    calendar: text,
  },
  {
    id: onlyInteractive(text, 'The event (of a series: the series)'),
    occurrence: onlyInteractive(
      J.nullable(J.date()),
      "The occurrence's original date (a one-off event's own date)",
    ),
    answers: onlyInteractive(
      J.map(ATTENDANCE),
      "Each of the display's people's answer, by person id",
    ),
  },
);

const LIST_ITEM = J.object(
  { title: text, done: J.boolean() },
  { id: onlyInteractive(text, 'The entry') },
);

const LIST = J.object({
  key: J.string('The collection key'),
  name: text,
  items: J.array(LIST_ITEM, 'Open items in the order they were added, then those ticked off today'),
});

const POLL_OPTION = J.object(
  {
    label: J.string('Its label, or its date and time'),
    voters: names('Familiar names of who chose it'),
  },
  { id: onlyInteractive(text, 'The option') },
);

const POLL = J.object(
  {
    plan: J.string("The plan's title"),
    question: text,
    options: J.array(POLL_OPTION),
  },
  {
    planId: onlyInteractive(text, 'The plan'),
    pollId: onlyInteractive(text, 'The poll'),
    votes: onlyInteractive(
      J.map(J.string()),
      "Each of the display's people's vote: person id → option id",
    ),
  },
);

const DAY = J.object({
  date: J.date(),
  label: J.string('"Today · Thursday 26 November"'),
  weather: J.nullable(WEATHER_DAY),
  events: J.array(EVENT),
});

const PERSON = J.object({ id: text, name: text });

/** What a display shows, as its page's JSON form and its stream's `display` events carry it. */
export const DISPLAY_CONTENT = J.object({
  ok: J.literal(true),
  name: text,
  family: J.string("The family's name"),
  timezone: J.string('IANA zone: every date and time is in it'),
  today: J.date(),
  interactive: J.boolean('Whether the page offers its actions'),
  night: J.nullable(
    J.object({ from: text, to: text }),
    'When the page dims (`HH:mm` local; over midnight when `to` < `from`)',
  ),
  days: J.array(DAY),
  chores: J.object({
    due: J.array(CHORE),
    done: J.array(CHORE, 'Ticked off today'),
  }),
  lists: J.array(LIST),
  polls: J.array(POLL, 'Open date polls of plans'),
  people: J.array(PERSON, 'Who an interactive display answers and votes for; empty otherwise'),
  weatherPlace: J.nullable(J.string()),
});

export type DisplayContent = ShapeOf<typeof DISPLAY_CONTENT>;
export type DisplayDay = ShapeOf<typeof DAY>;
export type DisplayEvent = ShapeOf<typeof EVENT>;
export type DisplayWeatherDay = ShapeOf<typeof WEATHER_DAY>;
export type DisplayChore = ShapeOf<typeof CHORE>;
export type DisplayListItem = ShapeOf<typeof LIST_ITEM>;
export type DisplayList = ShapeOf<typeof LIST>;
export type DisplayPollOption = ShapeOf<typeof POLL_OPTION>;
export type DisplayPoll = ShapeOf<typeof POLL>;
export type DisplayPerson = ShapeOf<typeof PERSON>;
