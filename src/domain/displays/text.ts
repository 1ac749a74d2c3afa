/**
 * The display's words and formats (docs/display.md, "Its language"): the `display` section of
 * the catalog in the display's locale, with its placeholders left for the page's script to
 * fill, and what the script needs to write dates, times and temperatures as that locale does.
 * The page carries it as JSON beside its first content; the stream sends it again when the
 * locale changes, so a screen on the wall follows without a reload.
 *
 * A display speaks its family's locale unless it names its own (`locale` on the display).
 */
import type { Catalog } from '../i18n/catalogs/en.js';
import { PSEUDO_LOCALE } from '../i18n/locale.js';
import { sectionTexts } from '../i18n/messages.js';
import { voiceOf } from '../i18n/voice.js';
import { familyLocale, type FamilyInfo } from '../shared/state.js';

/** The key of each word the display shows. */
export type DisplayMessageKey = keyof Catalog['display'];
export type DisplayMessages = Record<DisplayMessageKey, string>;

/** What the page delivers to its script besides the content. */
export interface DisplayText {
  /** The BCP 47 tag: the page's `lang`. */
  locale: string;
  /** The page's reading direction. */
  dir: 'ltr' | 'rtl';
  /** The tag the script gives `Intl` (the pseudo-locale formats as English, then accents it). */
  intl: string;
  /** The pseudo-locale: the script accents what `Intl` writes (docs/i18n.md). */
  pseudo: boolean;
  /** The locale's clock: 12-hour (`5:00 PM`) or 24-hour (`17:00`). */
  hour12: boolean;
  /** The unit the locale's region reads temperatures in. */
  temperature: 'celsius' | 'fahrenheit';
  /** Every message of the `display` section, its `{name}` marks left for the script. */
  messages: DisplayMessages;
}

/** The locale a display speaks: its own, else its family's. */
export function displayLocale(
  family: Pick<FamilyInfo, 'locale'>,
  display: { locale?: string | null },
): string {
  return display.locale ?? familyLocale(family);
}

const kept = new Map<string, DisplayText>();

/** The display's words in `locale`, its formats on `timeZone` (kept: they never change). */
export function displayText(locale: string, timeZone: string): DisplayText {
  const id = `${locale}\u0000${timeZone}`;
  let text = kept.get(id);
  if (!text) {
    const voice = voiceOf(locale, timeZone);
    const pseudo = locale === PSEUDO_LOCALE;
    text = {
      locale,
      dir: voice.dir,
      intl: pseudo ? 'en' : locale,
      pseudo,
      hour12: voice.formats.hour12(),
      temperature: voice.formats.temperatureUnit(),
      messages: sectionTexts(locale, 'display'),
    };
    if (kept.size >= 200) kept.clear();
    kept.set(id, text);
  }
  return text;
}
