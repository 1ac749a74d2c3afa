/**
 * What a page shows that did not come through a catalog (docs/i18n.md, the pseudo-locale): the
 * visible text of a page rendered in `en-XA` — text nodes, the title, `title`, `placeholder`,
 * `aria-label` and `alt`, the values of submit buttons — with the test's own data (family and
 * person names, titles) and every bracketed pseudo segment (`[Ťôďàý ··]`) taken out; what still
 * holds an ASCII letter was typed into the code. Left out as not words of the daemon: commands,
 * settings and secrets (`code`, `.secret`), the QR codes' drawing, and the names of zones and
 * languages in their lists (`#timezone`, `#locale`).
 */
import type { Page } from 'playwright-core';

const SKIP = 'script,style,code,.secret,svg *,#timezone,#locale';

/** The browser's side: every visible text of the document (run as a string: no DOM types here). */
const COLLECT = `(() => {
  const skip = ${JSON.stringify(SKIP)};
  const out = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = n.parentElement;
    if (!parent || parent.closest(skip)) continue;
    if ((n.textContent || '').trim()) out.push(n.textContent.trim());
  }
  for (const el of document.querySelectorAll('[title],[placeholder],[aria-label],[alt]')) {
    if (el.closest(skip)) continue;
    for (const a of ['title', 'placeholder', 'aria-label', 'alt']) {
      const v = el.getAttribute(a);
      if (v && v.trim()) out.push(v.trim());
    }
  }
  for (const el of document.querySelectorAll('input[type=submit],input[type=button]')) out.push(el.value);
  return out;
})()`;

/** Every visible text of the page, as the browser has it. */
export function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(COLLECT);
}

/** The bracketed pseudo segments taken out, innermost first (a message may hold another). */
export function withoutPseudo(text: string): string {
  let rest = text;
  for (;;) {
    const next = rest.replace(/\[[^[\]]*·\]/g, '');
    if (next === rest) return rest;
    rest = next;
  }
}

/** The texts of `page` that hold English outside the pseudo markers and the test's `data`. */
export async function untranslated(page: Page, data: readonly string[]): Promise<string[]> {
  const longestFirst = [...data].sort((a, b) => b.length - a.length);
  return (await visibleTexts(page)).filter((text) => {
    let rest = text;
    for (const d of longestFirst) rest = rest.split(d).join('');
    return /[A-Za-z]/.test(withoutPseudo(rest));
  });
}
