/** The `names` section of the es catalog, translated from `../en/names.ts`. */
import type { Catalog } from '../en.js';

export const names: Catalog['names'] = {
  calendar: 'Calendario familiar',
  calendarDescription: 'El calendario de la casa',
  meals: 'Comidas',
  mealsDescription: 'El menú: qué se cocina, cuándo y quién',
  chores: 'Tareas',
  choresDescription: 'Las tareas de casa y quién las hace',
  routines: 'Rutinas',
  routinesDescription: 'Rutinas diarias, paso a paso',
  groceries: 'Compra',
  groceriesDescription: 'La lista de la compra',
  notes: 'Notas',
  date: 'Fecha',
  meal: 'Comida',
  cook: 'Quién cocina',
  recipe: 'Receta',
  assignee: 'Quién lo hace',
  due: 'Para cuándo',
  repeats: 'Se repite',
  person: 'Persona',
  timeOfDay: 'Momento del día',
  steps: 'Pasos',
  quantity: 'Cantidad',
  aisle: 'Pasillo',
};
