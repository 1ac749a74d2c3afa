/** The `common` section of the fr catalog, translated from `../en/common.ts`. */
import type { Catalog } from '../en.js';

export const common: Catalog['common'] = {
  dayAt: '{day} à {time}',
  dayAllDay: '{day}, toute la journée',
};
