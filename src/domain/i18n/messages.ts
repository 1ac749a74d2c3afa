/**
 * Message catalogs (docs/i18n.md). Every text a person reads is a message in ICU MessageFormat
 * (`{count, plural, one {# chore} other {# chores}}`, `{kind, select, …}`), kept in one catalog
 * per language (`catalogs/<language>.ts`), in sections, one per part of the daemon (the notifications, the pages,
 * the display, …). The English catalog is the source: each other one has exactly its sections and
 * keys (a missing or extra key does not compile; test/domain/i18n.unit.test.ts also holds each
 * message's placeholders to the English one's). Formatting goes through `intl-messageformat`
 * (FormatJS), with plural and select rules for the whole locale from `Intl`.
 */
import { IntlMessageFormat } from 'intl-messageformat';
import { CATALOGS } from './catalogs/index.js';
import type { Section, Catalog } from './catalogs/en.js';
import { languageOf, PSEUDO_LOCALE, type Language } from './locale.js';
import { pseudoTree } from './pseudo.js';

export type { Section, Catalog } from './catalogs/en.js';
/** A message key of a section. */
export type KeyOf<S extends Section> = keyof Catalog[S] & string;
/** What a message's placeholders take. */
export type Values = Readonly<Record<string, string | number>>;

/** The source text of a message in a language (the pseudo-locale's is English). */
export function sourceOf<S extends Section>(language: Language, section: S, key: KeyOf<S>): string {
  const catalog = CATALOGS[language === PSEUDO_LOCALE ? 'en' : language];
  return catalog[section][key];
}

/** Compiled messages, per locale, section and key (a handful of locales are ever in use). */
const compiled = new Map<string, IntlMessageFormat>();
const COMPILED_MAX = 20_000;

function compile<S extends Section>(locale: string, section: S, key: KeyOf<S>): IntlMessageFormat {
  const id = `${locale}\u0000${section}\u0000${key}`;
  let format = compiled.get(id);
  if (format) return format;
  const language = languageOf(locale);
  const source = sourceOf(language, section, key);
  if (language === PSEUDO_LOCALE) {
    const tree = new IntlMessageFormat(source, 'en').getAst();
    // The pseudo tree keeps the parser's element shapes; only literal text changes.
    format = new IntlMessageFormat(pseudoTree(tree), 'en');
  } else {
    format = new IntlMessageFormat(source, locale);
  }
  if (compiled.size >= COMPILED_MAX) compiled.clear();
  compiled.set(id, format);
  return format;
}

/** The text of message `key` of `section` in `locale`, its placeholders filled from `values`. */
export function message<S extends Section>(
  locale: string,
  section: S,
  key: KeyOf<S>,
  values?: Values,
): string {
  const out = compile(locale, section, key).format(values);
  return typeof out === 'string' ? out : (out as unknown[]).join('');
}

/** `message` bound to a locale and an section: `say('reminderTitle', { title })`. */
export type Say<S extends Section> = (key: KeyOf<S>, values?: Values) => string;

export function sayer<S extends Section>(locale: string, section: S): Say<S> {
  return (key, values) => message(locale, section, key, values);
}

/**
 * Every message of a section in a locale, its placeholders left as `{name}` for a browser to fill
 * (the display's script, which has no ICU: such messages use no plural or select).
 */
export function sectionTexts<S extends Section>(
  locale: string,
  section: S,
): Record<KeyOf<S>, string> {
  const out = {} as Record<KeyOf<S>, string>;
  for (const key of Object.keys(CATALOGS.en[section]) as KeyOf<S>[]) {
    const names = argumentsOf(sourceOf('en', section, key));
    const keep = Object.fromEntries(names.map((n) => [n, `{${n}}`]));
    out[key] = message(locale, section, key, keep);
  }
  return out;
}

interface Element {
  type: number;
  value?: unknown;
  options?: Record<string, { value: Element[] }>;
  children?: Element[];
}

/** The placeholder names of a message (its arguments, plurals and selects). */
export function argumentsOf(source: string): string[] {
  const names = new Set<string>();
  const walk = (elements: readonly Element[]): void => {
    for (const e of elements) {
      // 0: literal text, 7: the `#` of a plural; every other element names an argument.
      if (e.type !== 0 && e.type !== 7 && typeof e.value === 'string') names.add(e.value);
      for (const o of Object.values(e.options ?? {})) walk(o.value);
      if (e.children) walk(e.children);
    }
  };
  walk(new IntlMessageFormat(source, 'en').getAst());
  return [...names].sort();
}
