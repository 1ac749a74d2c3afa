/**
 * Text matching for `query` parameters: case-insensitive and accent-insensitive
 * ("creme" finds "Crème brûlée", "ZOE" finds "Zoë").
 */

/** Folds text for matching: decomposes, drops diacritics, lower-cases. */
export function normalizeText(s: string): string {
  return s.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();
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
