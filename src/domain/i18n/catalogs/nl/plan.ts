/** The `plan` section of the nl catalog, translated from `../en/plan.ts`. */
import type { Catalog } from '../en.js';

export const plan: Catalog['plan'] = {
  phase:
    '{phase, select, unscheduled {Niet gepland} upcoming {Binnenkort} happening {Nu bezig} other {Voorbij}}',
  timesIn: 'Tijden in {zone}',
  schedule: 'Programma',
  busy: 'Bezet',
  where: 'Waar: {place}',
  addToCalendar: 'Aan mijn agenda toevoegen',
  polls: 'Peilingen',
  decided: 'Besloten',
  votes: '{count, plural, one {# stem} other {# stemmen}}',
  chosen: 'gekozen',
  notes: 'Notities',
  footer: 'Gedeeld vanuit Household Organizer. Deze pagina toont het plan zoals het nu is.',
  notFoundTitle: 'Niet gevonden',
  notFoundHeading: 'Hier is niets',
  notFoundText: 'Dit plan wordt niet (meer) gedeeld, of het adres is verkeerd getypt.',
  notScheduled: 'Niet gepland',
  range: '{from} – {to}',
  dayTime: '{day}, {time}',
};
