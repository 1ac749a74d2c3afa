/** The Arabic catalog (docs/i18n.md): translated from `en.ts`, as a household says it. */
import type { Catalog } from './en.js';
import { common } from './ar/common.js';
import { notifications } from './ar/notifications.js';
import { pages } from './ar/pages.js';
import { plan } from './ar/plan.js';
import { display } from './ar/display.js';
import { names } from './ar/names.js';

export const AR: Catalog = { common, notifications, pages, plan, display, names };
