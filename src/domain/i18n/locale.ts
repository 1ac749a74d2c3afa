/**
 * The household's language (docs/i18n.md). A family carries a `locale`, a BCP 47 tag such as
 * `de-DE` or `en-US`, beside its time zone; a person may carry their own for what is sent to
 * them. The tag does two jobs: it picks the message catalog (its *language*: `de-AT` reads the
 * German catalog, `pt` the Brazilian one) and it gives the formats (dates, clock, first day of
 * the week, numbers, units), which come from CLDR through `Intl` for the whole tag (`en-GB`
 * writes 17:00 from the English catalog, `en-US` 5:00 PM).
 */

/** The languages a catalog is shipped for; the first is the source every other translates. */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'nl', 'pt-BR', 'ar'] as const;
export type ShippedLanguage = (typeof LANGUAGES)[number];
/** The languages translated from English. */
export type TranslatedLanguage = Exclude<ShippedLanguage, 'en'>;

/**
 * The pseudo-locale: English with every letter accented, 40 % longer and in brackets
 * (`[Ťôďàý ··]`), so that text which did not come through a catalog stands out (tests).
 */
export const PSEUDO_LOCALE = 'en-XA';
export type Language = ShippedLanguage | typeof PSEUDO_LOCALE;

/** What a family without a locale speaks (families written before the field existed). */
export const DEFAULT_LOCALE = 'en';

/** Longest tag accepted (BCP 47 tags in use are far shorter). */
export const LOCALE_MAX_LENGTH = 35;

/**
 * The canonical form of a BCP 47 tag (`de-de` → `de-DE`), or null when it is not one or no
 * formats exist for its language.
 */
export function canonicalLocale(tag: string): string | null {
  if (tag.length === 0 || tag.length > LOCALE_MAX_LENGTH) return null;
  let canonical: string;
  try {
    [canonical] = Intl.getCanonicalLocales(tag);
  } catch {
    return null;
  }
  if (!canonical || canonical.includes('-u-') || canonical.includes('-x-')) return null;
  if (canonical === PSEUDO_LOCALE) return canonical;
  const language = new Intl.Locale(canonical).language;
  return Intl.DateTimeFormat.supportedLocalesOf([language]).length ? canonical : null;
}

/** The catalog a locale reads: its own tag, else its language's, else English. */
export function languageOf(locale: string): Language {
  if (locale === PSEUDO_LOCALE) return PSEUDO_LOCALE;
  const tag = new Intl.Locale(locale);
  const exact = LANGUAGES.find((l) => l === `${tag.language}-${tag.region ?? ''}`);
  if (exact) return exact;
  const same = LANGUAGES.find((l) => l === tag.language || l.startsWith(`${tag.language}-`));
  return same ?? 'en';
}

const RTL = new Set(['ar', 'he', 'fa', 'ur', 'ps', 'dv', 'yi', 'ckb', 'sd', 'ug']);

/** The reading direction of a locale (`dir` on every page and email). */
export function directionOf(locale: string): 'ltr' | 'rtl' {
  const tag = new Intl.Locale(locale);
  const info = (tag as { getTextInfo?: () => { direction?: string } }).getTextInfo?.();
  if (info?.direction === 'rtl' || info?.direction === 'ltr') return info.direction;
  return RTL.has(tag.language) ? 'rtl' : 'ltr';
}

/**
 * The locale of a person's own messages: theirs when they chose one, else the family's.
 */
export function localeFor(familyLocale: string | undefined, own?: string | null): string {
  return own ?? familyLocale ?? DEFAULT_LOCALE;
}
