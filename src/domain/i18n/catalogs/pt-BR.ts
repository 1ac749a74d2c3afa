/** The Brazilian Portuguese catalog (docs/i18n.md): translated from `en.ts`, as a household says it. */
import type { Catalog } from './en.js';
import { common } from './pt-BR/common.js';
import { notifications } from './pt-BR/notifications.js';
import { pages } from './pt-BR/pages.js';
import { plan } from './pt-BR/plan.js';
import { display } from './pt-BR/display.js';
import { names } from './pt-BR/names.js';

export const PT_BR: Catalog = { common, notifications, pages, plan, display, names };
