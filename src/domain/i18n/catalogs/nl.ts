/** The Dutch catalog (docs/i18n.md): translated from `en.ts`, as a household says it. */
import type { Catalog } from './en.js';
import { common } from './nl/common.js';
import { notifications } from './nl/notifications.js';
import { pages } from './nl/pages.js';
import { plan } from './nl/plan.js';
import { display } from './nl/display.js';
import { names } from './nl/names.js';

export const NL: Catalog = { common, notifications, pages, plan, display, names };
