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
