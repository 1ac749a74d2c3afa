/**
 * Snippets: a short piece of a result's text, cut around the first word the query matched so
 * a reader sees why it was found.
 */
import { normalizeText } from '../collections/search.js';

/** Longest snippet, in characters (an ellipsis at either end comes on top). */
export const SNIPPET_MAX = 160;
const BEFORE = 50;
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** The text cut to SNIPPET_MAX characters at a word boundary. */
export function clip(text: string, max = SNIPPET_MAX): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * The part of `text` around the first word whose folded form is one of `terms` (the index's
 * matched terms), or null when no word of the text matched (the match was in the title).
 */
export function around(text: string, terms: readonly string[], max = SNIPPET_MAX): string | null {
  if (!text || !terms.length) return null;
  const wanted = new Set(terms);
  for (const m of text.matchAll(WORD)) {
    if (!wanted.has(normalizeText(m[0]))) continue;
    let start = Math.max(0, m.index - BEFORE);
    if (start > 0) {
      const space = text.indexOf(' ', start);
      start = space >= 0 && space < m.index ? space + 1 : start;
    }
    const rest = text.slice(start);
    return `${start > 0 ? '…' : ''}${clip(rest, max)}`;
  }
  return null;
}
