/**
 * Text matching for `query` parameters: case-insensitive and accent-insensitive
 * ("creme" finds "Crème brûlée", "ZOE" finds "Zoë").
 */

/**
 * Letters that carry their mark inside (no decomposition): how a person types them on a plain
 * keyboard.
 */
const LETTERS: Record<string, string> = {
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ß: 'ss',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
};
const LETTER_RE = new RegExp(`[${Object.keys(LETTERS).join('')}]`, 'g');

/**
 * Folds text for matching: decomposes, drops diacritics, lower-cases, spells out ø, æ, ß and the
 * like.
 */
export function normalizeText(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(LETTER_RE, (c) => LETTERS[c]);
}

/** The query's words, folded; an entry matches when its text contains every one of them. */
export function queryTerms(query: string | undefined): string[] {
  if (!query) return [];
  return normalizeText(query).split(/\s+/).filter(Boolean);
}

export function matchesTerms(folded: string, terms: readonly string[]): boolean {
  for (const t of terms) if (!folded.includes(t)) return false;
  return true;
}
