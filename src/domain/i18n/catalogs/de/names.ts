/** The `names` section of the de catalog, translated from `../en/names.ts`. */
import type { Catalog } from '../en.js';

export const names: Catalog['names'] = {
  calendar: 'Familienkalender',
  calendarDescription: 'Der Kalender des Haushalts',
  meals: 'Essen',
  mealsDescription: 'Essensplan: was wann gekocht wird und wer kocht',
  chores: 'Aufgaben',
  choresDescription: 'Aufgaben im Haushalt und wer sie erledigt',
  routines: 'Routinen',
  routinesDescription: 'Tägliche Routinen, Schritt für Schritt',
  groceries: 'Einkaufsliste',
  groceriesDescription: 'Was eingekauft werden muss',
  notes: 'Notizen',
  date: 'Datum',
  meal: 'Mahlzeit',
  cook: 'Wer kocht',
  recipe: 'Rezept',
  assignee: 'Wer macht’s',
  due: 'Fällig',
  repeats: 'Wiederholung',
  person: 'Person',
  timeOfDay: 'Tageszeit',
  steps: 'Schritte',
  quantity: 'Menge',
  aisle: 'Abteilung',
};
