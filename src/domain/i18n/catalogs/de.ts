/** The German catalog (docs/i18n.md): translated from `en.ts`, as a household says it. */
import type { Catalog } from './en.js';
import { common } from './de/common.js';
import { notifications } from './de/notifications.js';
import { pages } from './de/pages.js';
import { plan } from './de/plan.js';
import { display } from './de/display.js';
import { names } from './de/names.js';

export const DE: Catalog = { common, notifications, pages, plan, display, names };
