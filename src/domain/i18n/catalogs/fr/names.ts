/** The `names` section of the fr catalog, translated from `../en/names.ts`. */
import type { Catalog } from '../en.js';

export const names: Catalog['names'] = {
  calendar: 'Calendrier familial',
  calendarDescription: 'Le calendrier de la maison',
  meals: 'Repas',
  mealsDescription: 'Les menus : qui cuisine quoi et quand',
  chores: 'Tâches ménagères',
  choresDescription: 'Les tâches de la maison et qui s’en charge',
  routines: 'Routines',
  routinesDescription: 'Les routines du quotidien, étape par étape',
  groceries: 'Courses',
  groceriesDescription: 'La liste de courses',
  notes: 'Notes',
  date: 'Date',
  meal: 'Repas',
  cook: 'Qui cuisine',
  recipe: 'Recette',
  assignee: 'Qui s’en charge',
  due: 'Pour le',
  repeats: 'Répétition',
  person: 'Personne',
  timeOfDay: 'Moment de la journée',
  steps: 'Étapes',
  quantity: 'Quantité',
  aisle: 'Rayon',
};
