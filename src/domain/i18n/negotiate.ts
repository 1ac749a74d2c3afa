/**
 * The language a browser asks for (`Accept-Language`), matched against the shipped catalogs
 * (docs/i18n.md): for a page shown before anyone is known (the consent page without a family,
 * the sign-in and setup pages). The browser's own tag is kept when its language is shipped
 * (`de-AT` reads German with Austrian formats); `en-XA` is honoured so a test can ask for the
 * pseudo-locale.
 */
import { canonicalLocale, DEFAULT_LOCALE, LANGUAGES, PSEUDO_LOCALE } from './locale.js';

/** The tags of an `Accept-Language` header, best first (by q, then by order). */
function ranked(header: string): string[] {
  return header
    .split(',')
    .slice(0, 20)
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((t) => t.tag && t.tag !== '*' && t.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((t) => t.tag);
}

/** The best shipped locale for an `Accept-Language` header, else `en`. */
export function bestLocale(header: string | undefined): string {
  for (const tag of ranked(header ?? '')) {
    const canonical = canonicalLocale(tag);
    if (!canonical) continue;
    if (canonical === PSEUDO_LOCALE) return canonical;
    const { language, region } = new Intl.Locale(canonical);
    const shipped = LANGUAGES.some((l) => l === language || l === `${language}-${region ?? ''}`);
    // Portuguese other than Brazil's reads the Brazilian catalog (languageOf), as a fallback.
    if (shipped || (language === 'pt' && LANGUAGES.includes('pt-BR'))) return canonical;
  }
  return DEFAULT_LOCALE;
}
