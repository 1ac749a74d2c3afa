/** The `plan` section of the fr catalog, translated from `../en/plan.ts`. */
import type { Catalog } from '../en.js';

export const plan: Catalog['plan'] = {
  phase:
    '{phase, select, unscheduled {Pas de date} upcoming {À venir} happening {En cours} other {Passé}}',
  timesIn: 'Heures en {zone}',
  schedule: 'Programme',
  busy: 'Occupé',
  where: 'Où : {place}',
  addToCalendar: 'Ajouter à mon calendrier',
  polls: 'Sondages',
  decided: 'Décidé',
  votes: '{count, plural, one {# voix} other {# voix}}',
  chosen: 'choisi',
  notes: 'Notes',
  footer:
    'Partagé depuis Household Organizer. Cette page montre le projet tel qu’il est maintenant.',
  notFoundTitle: 'Introuvable',
  notFoundHeading: 'Rien ici',
  notFoundText: 'Ce projet n’est pas (plus) partagé, ou l’adresse est mal tapée.',
  notScheduled: 'Pas de date',
  range: '{from} – {to}',
  dayTime: '{day}, {time}',
};
