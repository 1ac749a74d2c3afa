/** The `plan` section of the es catalog, translated from `../en/plan.ts`. */
import type { Catalog } from '../en.js';

export const plan: Catalog['plan'] = {
  phase:
    '{phase, select, unscheduled {Sin fecha} upcoming {Próximamente} happening {Ahora mismo} other {Pasado}}',
  timesIn: 'Horas en {zone}',
  schedule: 'Programa',
  busy: 'Ocupado',
  where: 'Dónde: {place}',
  addToCalendar: 'Añadir a mi calendario',
  polls: 'Encuestas',
  decided: 'Decidido',
  votes: '{count, plural, one {# voto} other {# votos}}',
  chosen: 'elegido',
  notes: 'Notas',
  footer: 'Compartido desde Household Organizer. Esta página muestra el plan tal como está ahora.',
  notFoundTitle: 'No encontrado',
  notFoundHeading: 'Aquí no hay nada',
  notFoundText: 'Este plan ya no se comparte, o la dirección está mal escrita.',
  notScheduled: 'Sin fecha',
  range: '{from} – {to}',
  dayTime: '{day}, {time}',
};
