/**
 * A voice: everything needed to speak to a person — the locale's messages, its formats on the
 * family's zone, its reading direction — in one value (docs/i18n.md). Who builds a text takes
 * the voice of its reader: the family's for its pages and display (a display may name its own
 * locale), a person's own locale for what is sent to them.
 */
import { formatsFor, type Formats } from './formats.js';
import { directionOf, languageOf, type Language } from './locale.js';
import { message, type Section, type KeyOf, type Values } from './messages.js';

export interface Voice {
  /** The BCP 47 tag (`lang` of a page, `Content-Language` of an email). */
  readonly locale: string;
  /** The catalog it reads. */
  readonly language: Language;
  readonly dir: 'ltr' | 'rtl';
  readonly formats: Formats;
  say<S extends Section>(section: S, key: KeyOf<S>, values?: Values): string;
}

const voices = new Map<string, Voice>();

export function voiceOf(locale: string, timeZone: string): Voice {
  const id = `${locale}\u0000${timeZone}`;
  let voice = voices.get(id);
  if (!voice) {
    if (voices.size >= 1_000) voices.clear();
    voice = {
      locale,
      language: languageOf(locale),
      dir: directionOf(locale),
      formats: formatsFor(locale, timeZone),
      say: (section, key, values) => message(locale, section, key, values),
    };
    voices.set(id, voice);
  }
  return voice;
}

/** The `lang` and `dir` attributes of a page or email's root element. */
export function langAttributes(voice: Pick<Voice, 'locale' | 'dir'>): string {
  return `lang="${voice.locale}" dir="${voice.dir}"`;
}
