/** The `plan` section of the de catalog, translated from `../en/plan.ts`. */
import type { Catalog } from '../en.js';

export const plan: Catalog['plan'] = {
  phase:
    '{phase, select, unscheduled {Nicht geplant} upcoming {Demnächst} happening {Läuft gerade} other {Vorbei}}',
  timesIn: 'Zeiten in {zone}',
  schedule: 'Ablauf',
  busy: 'Belegt',
  where: 'Wo: {place}',
  addToCalendar: 'In meinen Kalender',
  polls: 'Umfragen',
  decided: 'Entschieden',
  votes: '{count, plural, one {# Stimme} other {# Stimmen}}',
  chosen: 'gewählt',
  notes: 'Notizen',
  footer: 'Geteilt aus Household Organizer. Diese Seite zeigt den Plan, wie er gerade ist.',
  notFoundTitle: 'Nicht gefunden',
  notFoundHeading: 'Hier ist nichts',
  notFoundText: 'Dieser Plan wird nicht (mehr) geteilt, oder die Adresse ist vertippt.',
  notScheduled: 'Nicht geplant',
  range: '{from} – {to}',
  dayTime: '{day}, {time}',
};
