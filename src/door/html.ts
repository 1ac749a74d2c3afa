import { langAttributes, type Voice } from '../domain/i18n/voice.js';

/**
 * Text into HTML, for every door that writes a page (the public pages, the family display,
 * the OAuth consent page, the household's pages).
 */
export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/**
 * The start of every page a door writes, through `</head>`: the same metadata everywhere (no
 * indexing, no referrer, phone-sized, `lang` and `dir` of the reader's voice), the title escaped, and the page's one inline style, which
 * each door's Content-Security-Policy allows by its hash. `extra` is trusted markup (a favicon).
 */
export function pageHead(p: {
  title: string;
  style: string;
  extra?: string;
  /** The reader's language and direction (docs/i18n.md); English left to right without one. */
  voice?: Pick<Voice, 'locale' | 'dir'>;
}): string {
  return `<!doctype html>
<html ${p.voice ? langAttributes(p.voice) : 'lang="en"'}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
${p.extra ? `${p.extra}\n` : ''}<title>${escapeHtml(p.title)}</title>
<style>${p.style}</style>
</head>
`;
}
