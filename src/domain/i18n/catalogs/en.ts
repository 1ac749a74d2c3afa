/**
 * The English catalog, the source every other language translates (docs/i18n.md). One section
 * per section; a message is ICU MessageFormat. Keys are camelCase and say what the text is for, not
 * what it says. Each other catalog (`de.ts`, `fr.ts`, …) has exactly these sections and keys.
 */
export const EN = {
  // ── common: words several sections share ──────────────────────────────────────────────────
  common: {
    /** A day and time: "Today 5:00 PM", "Sat, Nov 28 5:00 PM". */
    dayAt: '{day} {time}',
    /** An all-day event's day: "Tomorrow, all day". */
    dayAllDay: '{day}, all day',
  },

  // ── notifications: reminders, digests, briefings, alerts (every channel) ────────────────
  notifications: {},

  // ── pages: the household pages, their emails, the consent page ──────────────────────────
  pages: {},

  // ── plan: the plan page and its poll ─────────────────────────────────────────────────────
  plan: {},

  // ── display: the wall display (sent to the browser with the page) ───────────────────────
  display: {},

  // ── names: names the daemon makes up (built-in calendars and lists, feeds) ───────────────
  names: {},
} satisfies Record<string, Record<string, string>>;

/** A catalog: each section of the English one, with exactly its keys. */
export type Catalog = {
  readonly [A in keyof typeof EN]: { readonly [K in keyof (typeof EN)[A]]: string };
};
export type Section = keyof Catalog;
