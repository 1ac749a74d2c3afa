/** The `common` section of the de catalog, translated from `../en/common.ts`. */
import type { Catalog } from '../en.js';

export const common: Catalog['common'] = {
  dayAt: '{day} {time}',
  dayAllDay: '{day}, ganztägig',
};
