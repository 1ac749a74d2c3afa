/** The `names` section of the ar catalog, translated from `../en/names.ts`. */
import type { Catalog } from '../en.js';

export const names: Catalog['names'] = {
  calendar: 'تقويم العائلة',
  calendarDescription: 'تقويم البيت',
  meals: 'الوجبات',
  mealsDescription: 'خطة الوجبات: ماذا يُطبخ ومتى ومن يطبخ',
  chores: 'الأعمال المنزلية',
  choresDescription: 'مهام البيت ومن يقوم بها',
  routines: 'الروتين',
  routinesDescription: 'الروتين اليومي خطوة بخطوة',
  groceries: 'المشتريات',
  groceriesDescription: 'قائمة التسوق',
  notes: 'ملاحظات',
  date: 'التاريخ',
  meal: 'الوجبة',
  cook: 'من يطبخ',
  recipe: 'الوصفة',
  assignee: 'من يقوم بها',
  due: 'الموعد',
  repeats: 'التكرار',
  person: 'الشخص',
  timeOfDay: 'وقت اليوم',
  steps: 'الخطوات',
  quantity: 'الكمية',
  aisle: 'القسم',
};
