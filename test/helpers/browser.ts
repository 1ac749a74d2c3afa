/**
 * Debian's Chromium for the browser tests, started the same way by each (headless, nothing that
 * reaches out by itself), and axe-core's accessibility check of a loaded page.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string[]; failureSummary: string }[];
}

/** A headless Chromium with background networking, updates and sync off. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * axe-core's violations on the page as loaded, one line each. Its source is evaluated through
 * the DevTools protocol, which the page's Content-Security-Policy does not govern.
 */
export async function axeViolations(
  page: Page,
  tags: string[] = [...WCAG_AA, 'best-practice'],
): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate<AxeViolation[]>(`(async () => {
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(tags)} } });
    return result.violations;
  })()`);
  return violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id} (${v.impact}) at ${n.target.join(' ')}: ${n.failureSummary}`),
  );
}

/**
 * Runs in the page: boxes whose text overflows (an element's scrollWidth past its clientWidth),
 * words broken across lines (a word's letters on two lines; words split at spaces and dashes),
 * and buttons or fields under 48 px.
 */
export const INSPECT = `(() => {
  const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : '');
  const overflowing = [];
  for (const e of document.querySelectorAll('*')) {
    if (e.clientWidth === 0) continue;
    if (e.scrollWidth > e.clientWidth + 1) overflowing.push(name(e) + ' ' + e.scrollWidth + '>' + e.clientWidth);
  }
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const words = /[^\\s\\-–—\\u00ad\\[\\]]+/g;
    let m;
    while ((m = words.exec(node.textContent))) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const lines = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(m[0] + ' in ' + name(node.parentElement));
    }
  }
  const small = [];
  for (const b of document.querySelectorAll('button, input')) {
    const r = b.getBoundingClientRect();
    if (r.width > 0 && (r.width < 48 || r.height < 48)) small.push(name(b) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
  }
  return { overflowing, broken, small };
})()`;
