/** The `names` section of the nl catalog, translated from `../en/names.ts`. */
import type { Catalog } from '../en.js';

export const names: Catalog['names'] = {
  calendar: 'Gezinsagenda',
  calendarDescription: 'De agenda van het huishouden',
  meals: 'Maaltijden',
  mealsDescription: 'Weekmenu: wat er wanneer gekookt wordt en door wie',
  chores: 'Klusjes',
  choresDescription: 'Huishoudelijke taken en wie ze doet',
  routines: 'Routines',
  routinesDescription: 'Dagelijkse routines, stap voor stap',
  groceries: 'Boodschappen',
  groceriesDescription: 'Het boodschappenlijstje',
  notes: 'Notities',
  date: 'Datum',
  meal: 'Maaltijd',
  cook: 'Wie kookt',
  recipe: 'Recept',
  assignee: 'Wie doet het',
  due: 'Wanneer',
  repeats: 'Herhaalt',
  person: 'Persoon',
  timeOfDay: 'Moment van de dag',
  steps: 'Stappen',
  quantity: 'Hoeveelheid',
  aisle: 'Schap',
};
