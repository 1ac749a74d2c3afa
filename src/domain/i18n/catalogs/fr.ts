/** The French catalog (docs/i18n.md): translated from `en.ts`, as a household says it. */
import type { Catalog } from './en.js';
import { common } from './fr/common.js';
import { notifications } from './fr/notifications.js';
import { pages } from './fr/pages.js';
import { plan } from './fr/plan.js';
import { display } from './fr/display.js';
import { names } from './fr/names.js';

export const FR: Catalog = { common, notifications, pages, plan, display, names };
