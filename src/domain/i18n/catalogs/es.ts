/** The Spanish catalog (docs/i18n.md): translated from `en.ts`, as a household says it. */
import type { Catalog } from './en.js';
import { common } from './es/common.js';
import { notifications } from './es/notifications.js';
import { pages } from './es/pages.js';
import { plan } from './es/plan.js';
import { display } from './es/display.js';
import { names } from './es/names.js';

export const ES: Catalog = { common, notifications, pages, plan, display, names };
