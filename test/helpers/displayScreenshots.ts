/**
 * Screenshots of the family display in each shipped language (docs/display.md, "Its
 * language"): a daemon on a fresh folder, the household of displaySeed.ts (its own words in
 * German for the German shot, in English for the others: what a family typed stays as typed),
 * one interactive display set to each locale in turn, drawn by Chromium on a landscape tablet
 * (1280×800) with an event opened, written to docs/screenshots/display-<locale>.png.
 *
 *     npm run build && node dist/test/helpers/displayScreenshots.js
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { todayIn } from '../../src/domain/shared/time.js';
import { launchChromium } from './browser.js';
import { ENGLISH, GERMAN, seedHousehold } from './displaySeed.js';
import { startTestServer } from './server.js';

export const SHOWN_LOCALES = [
  'en-US',
  'en-GB',
  'de-DE',
  'fr-FR',
  'es-ES',
  'nl-NL',
  'pt-BR',
  'ar-EG',
] as const;

const OUT = 'docs/screenshots';

async function shoot(locale: string, germanData: boolean): Promise<string> {
  const server = await startTestServer({ timezone: 'Europe/Berlin' });
  const browser = await launchChromium();
  try {
    const today = todayIn('Europe/Berlin', new Date());
    // A family made in the locale: its built-in lists are named in its language, as a
    // household that chose it at setup sees them.
    const { client } = await server.family('household', { timezone: 'Europe/Berlin', locale });
    const named = await client.patch('', { name: 'Home' });
    if (named.status !== 200) throw new Error(`family name: ${named.status} ${named.text}`);
    const made = await seedHousehold(client, today, germanData ? GERMAN : ENGLISH);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${server.url}/display/${made.token}`);
    await page.waitForSelector('#status[data-state=live]');
    await page.locator('button.open').first().click();
    await page.waitForSelector('.who');
    const path = join(OUT, `display-${locale}.png`);
    await page.screenshot({ path });
    return path;
  } finally {
    await browser.close();
    await server.close();
  }
}

mkdirSync(OUT, { recursive: true });
for (const locale of SHOWN_LOCALES) console.log(await shoot(locale, locale === 'de-DE'));
