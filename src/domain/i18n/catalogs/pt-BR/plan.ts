/** The `plan` section of the pt-BR catalog, translated from `../en/plan.ts`. */
import type { Catalog } from '../en.js';

export const plan: Catalog['plan'] = {
  phase:
    '{phase, select, unscheduled {Sem data} upcoming {Em breve} happening {Acontecendo agora} other {Já passou}}',
  timesIn: 'Horários em {zone}',
  schedule: 'Programação',
  busy: 'Ocupado',
  where: 'Onde: {place}',
  addToCalendar: 'Adicionar à minha agenda',
  polls: 'Enquetes',
  decided: 'Decidido',
  votes: '{count, plural, one {# voto} other {# votos}}',
  chosen: 'escolhido',
  notes: 'Notas',
  footer: 'Compartilhado pelo Household Organizer. Esta página mostra o plano como ele está agora.',
  notFoundTitle: 'Não encontrado',
  notFoundHeading: 'Nada aqui',
  notFoundText: 'Este plano não é (mais) compartilhado, ou o endereço foi digitado errado.',
  notScheduled: 'Sem data',
  range: '{from} – {to}',
  dayTime: '{day}, {time}',
};
