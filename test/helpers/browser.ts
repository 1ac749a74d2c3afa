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
