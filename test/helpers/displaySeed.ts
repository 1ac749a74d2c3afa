/**
 * A household for the display's language tests and screenshots (test/http/displayLocale.e2e,
 * test/helpers/displayScreenshots.ts): people, three days of events, chores, groceries and a
 * poll, written through the API, and an interactive display of them. The titles are the test's
 * own data, in the language given (German ones are long compounds), so a pseudo-locale check
 * can leave them out.
 */
import { expect } from 'chai';
import { addDays } from '../../src/domain/shared/time.js';
import type { Client } from './server.js';

/** The household's own words: what its people typed, not what the daemon says. */
export interface HouseholdWords {
  people: [string, string, string];
  events: [string, string, string, string, string];
  places: [string, string];
  chores: [string, string, string];
  groceries: string[];
  plan: string;
  question: string;
}

export const GERMAN: HouseholdWords = {
  people: ['Mama', 'Leonhard', 'Papa'],
  events: [
    'Schwimmunterricht',
    'Klavierstunde',
    'Zahnarzttermin',
    'Fußballtraining',
    'Elternsprechtag',
  ],
  places: ['Hallenbad Nord', 'Grundschulturnhalle'],
  chores: ['Geschirrspülmaschine ausräumen', 'Mülltonnen rausstellen', 'Blumen gießen'],
  groceries: ['Milch', 'Vollkornbrot', 'Spülmaschinentabs', 'Waschmittel'],
  plan: 'Sommerurlaub',
  question: 'Welches Wochenende?',
};

export const ENGLISH: HouseholdWords = {
  people: ['Mum', 'Leo', 'Dad'],
  events: ['Swimming lesson', 'Piano', 'Dentist', 'Football training', 'Parents evening'],
  places: ['City pool', 'Primary school hall'],
  chores: ['Unload the dishwasher', 'Bins out', 'Water the plants'],
  groceries: ['Milk', 'Bread', 'Apples', 'Washing-up liquid'],
  plan: 'Summer trip',
  question: 'Which weekend?',
};

/** Every word of the household's own, for a check that leaves data out. */
export function wordsOf(w: HouseholdWords): string[] {
  return [
    ...w.people,
    ...w.events,
    ...w.places,
    ...w.chores,
    ...w.groceries,
    w.plan,
    w.question,
    'Home',
    'Kitchen',
  ];
}

/** Writes the household into the family of `api`; answers its display's token and id. */
export async function seedHousehold(
  api: Client,
  today: string,
  w: HouseholdWords,
): Promise<{ token: string; displayId: string }> {
  const person = async (name: string) =>
    (await api.post('/people', { name })).body.person.id as string;
  const [mum, kid, dad] = [
    await person(w.people[0]),
    await person(w.people[1]),
    await person(w.people[2]),
  ];
  const events = [
    {
      title: w.events[0],
      date: today,
      time: '17:00',
      endTime: '18:00',
      where: w.places[0],
      attendance: { [mum]: 'going', [kid]: 'going' },
      travelPlan: { origin: 'Home', baseTravelMinutes: 20, arriveEarlyMinutes: 10 },
    },
    { title: w.events[1], date: today, time: '19:00', durationMinutes: 45 },
    {
      title: w.events[2],
      date: addDays(today, 1),
      time: '09:30',
      durationMinutes: 40,
      attendance: { [kid]: 'going' },
    },
    {
      title: w.events[3],
      date: addDays(today, 1),
      time: '16:00',
      endTime: '17:30',
      attendance: { [dad]: 'going', [kid]: 'going' },
    },
    { title: w.events[4], date: addDays(today, 2), where: w.places[1] },
  ];
  for (const e of events) expect((await api.post('/calendar/events', e)).status).to.equal(201);
  const chore = async (title: string, due: string, assignee: string) =>
    (await api.post('/trackers/chores/entries', { title, data: { due, assignee } })).body.entry
      .id as string;
  await chore(w.chores[0], today, kid);
  await chore(w.chores[1], addDays(today, -1), dad);
  const done = await chore(w.chores[2], today, mum);
  await api.patch(`/trackers/chores/entries/${done}`, { status: 'done' });
  for (const title of w.groceries) await api.post('/trackers/groceries/entries', { title });
  const plan = (await api.post('/plans', { title: w.plan })).body.planId;
  await api.post(`/plans/${plan}/polls`, {
    question: w.question,
    options: [{ date: addDays(today, 20) }, { date: addDays(today, 27) }],
  });
  const made = (await api.post('/displays', { name: 'Kitchen', interactive: true })).body;
  return { token: made.token, displayId: made.display.id };
}
