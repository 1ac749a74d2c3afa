/**
 * The English catalog, the source every other language translates (docs/i18n.md): one file per
 * section in `en/`; a message is ICU MessageFormat. Keys are camelCase and say what the text is
 * for, not what it says. Each other catalog (`de.ts` with `de/`, …) has exactly these sections
 * and keys.
 */
import { common } from './en/common.js';
import { notifications } from './en/notifications.js';
import { pages } from './en/pages.js';
import { plan } from './en/plan.js';
import { display } from './en/display.js';
import { names } from './en/names.js';

export const EN = { common, notifications, pages, plan, display, names };

/** A catalog: each section of the English one, with exactly its keys. */
export type Catalog = {
  readonly [A in keyof typeof EN]: { readonly [K in keyof (typeof EN)[A]]: string };
};
export type Section = keyof Catalog;
