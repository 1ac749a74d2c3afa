/** The `names` section of the pt-BR catalog, translated from `../en/names.ts`. */
import type { Catalog } from '../en.js';

export const names: Catalog['names'] = {
  calendar: 'Agenda da família',
  calendarDescription: 'A agenda da casa',
  meals: 'Refeições',
  mealsDescription: 'Cardápio: o que se cozinha, quando e quem cozinha',
  chores: 'Tarefas',
  choresDescription: 'As tarefas da casa e quem faz cada uma',
  routines: 'Rotinas',
  routinesDescription: 'Rotinas do dia a dia, passo a passo',
  groceries: 'Compras',
  groceriesDescription: 'A lista de compras',
  notes: 'Observações',
  date: 'Data',
  meal: 'Refeição',
  cook: 'Quem cozinha',
  recipe: 'Receita',
  assignee: 'Quem faz',
  due: 'Prazo',
  repeats: 'Repete',
  person: 'Pessoa',
  timeOfDay: 'Período do dia',
  steps: 'Passos',
  quantity: 'Quantidade',
  aisle: 'Corredor',
};
