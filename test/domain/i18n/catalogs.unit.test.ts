/**
 * The catalogs and formats of docs/i18n.md: every shipped catalog has exactly the English one's
 * sections and keys, each message parses in its language and names the same placeholders; the
 * pseudo-locale marks every message; formats come from CLDR for the whole tag.
 */
import { expect } from 'chai';
import { IntlMessageFormat } from 'intl-messageformat';
import { CATALOGS } from '../../../src/domain/i18n/catalogs/index.js';
import {
  canonicalLocale,
  directionOf,
  LANGUAGES,
  languageOf,
  PSEUDO_LOCALE,
} from '../../../src/domain/i18n/locale.js';
import {
  argumentsOf,
  message,
  sectionTexts,
  type Section,
} from '../../../src/domain/i18n/messages.js';
import { accent, PSEUDO_CLOSE, PSEUDO_OPEN } from '../../../src/domain/i18n/pseudo.js';
import { formatsFor } from '../../../src/domain/i18n/formats.js';
import { voiceOf } from '../../../src/domain/i18n/voice.js';

const EN = CATALOGS.en;
const sections = Object.keys(EN) as Section[];

describe('i18n catalogs', () => {
  for (const language of LANGUAGES) {
    const catalog = CATALOGS[language];
    it(`${language}: the English sections and keys, each message parsing with its placeholders`, () => {
      expect(Object.keys(catalog).sort()).to.deep.equal([...sections].sort());
      for (const section of sections) {
        const en = EN[section] as Record<string, string>;
        const own = catalog[section] as Record<string, string>;
        expect(Object.keys(own).sort(), section).to.deep.equal(Object.keys(en).sort());
        for (const [key, source] of Object.entries(own)) {
          expect(() => new IntlMessageFormat(source, language), `${section}.${key}`).not.to.throw();
          expect(argumentsOf(source), `${section}.${key}`).to.deep.equal(argumentsOf(en[key]));
          expect(source.trim(), `${section}.${key} is empty`).not.to.equal('');
        }
      }
    });
  }

  it('marks every message of the pseudo-locale, placeholders kept', () => {
    for (const section of sections)
      for (const key of Object.keys(EN[section]) as never[]) {
        const names = argumentsOf((EN[section] as Record<string, string>)[key]);
        const values = Object.fromEntries(names.map((n) => [n, 7]));
        const text = message(PSEUDO_LOCALE, section, key, values);
        expect(text.startsWith(PSEUDO_OPEN) && text.endsWith(PSEUDO_CLOSE), text).to.equal(true);
        expect(text.replace(/\d/g, ''), text).not.to.match(/[A-Za-z]/);
      }
    expect(message(PSEUDO_LOCALE, 'common', 'dayAllDay', { day: 'X' })).to.equal(
      `[X, àļļ ďàý ····]`,
    );
    expect(accent('Today')).to.equal('Ťôďàý');
  });

  it('leaves placeholders for a browser to fill (sectionTexts)', () => {
    expect(sectionTexts('de-DE', 'common').dayAllDay).to.equal('{day}, ganztägig');
  });
});

describe('i18n locales', () => {
  it('keeps a BCP 47 tag in its canonical form, refusing what is not one', () => {
    expect(canonicalLocale('de-de')).to.equal('de-DE');
    expect(canonicalLocale('pt-br')).to.equal('pt-BR');
    expect(canonicalLocale('en')).to.equal('en');
    expect(canonicalLocale(PSEUDO_LOCALE)).to.equal(PSEUDO_LOCALE);
    for (const bad of ['', 'not a locale', 'x', 'de_DE', 'zz-ZZ', 'en-u-hc-h12', 'a'.repeat(36)])
      expect(canonicalLocale(bad), bad).to.equal(null);
  });

  it('reads the catalog of the tag, else of its language, else English', () => {
    expect(languageOf('de-AT')).to.equal('de');
    expect(languageOf('pt-BR')).to.equal('pt-BR');
    expect(languageOf('pt-PT')).to.equal('pt-BR');
    expect(languageOf('en-GB')).to.equal('en');
    expect(languageOf('ar-EG')).to.equal('ar');
    expect(languageOf('ja-JP')).to.equal('en');
    expect(directionOf('ar')).to.equal('rtl');
    expect(directionOf('he-IL')).to.equal('rtl');
    expect(directionOf('de-DE')).to.equal('ltr');
  });
});

describe('i18n formats', () => {
  it('writes the locale clock: 5:00 PM in en-US, 17:00 in de-DE and en-GB', () => {
    expect(formatsFor('en-US', 'UTC').time('17:00')).to.match(/^5:00\sPM$/);
    expect(formatsFor('de-DE', 'UTC').time('17:00')).to.equal('17:00');
    expect(formatsFor('en-GB', 'UTC').time('17:00')).to.equal('17:00');
    expect(formatsFor('en-US', 'UTC').hour12()).to.equal(true);
    expect(formatsFor('de-DE', 'UTC').hour12()).to.equal(false);
  });

  it('writes an instant on the family zone, across a daylight-saving change', () => {
    const berlin = formatsFor('de-DE', 'Europe/Berlin');
    expect(berlin.instantTime(Date.parse('2026-03-29T00:30:00Z'))).to.equal('01:30');
    expect(berlin.instantTime(Date.parse('2026-03-29T01:30:00Z'))).to.equal('03:30');
  });

  it('writes dates as they are: a leap day, a month end; CLDR names', () => {
    expect(formatsFor('en-US', 'Pacific/Kiritimati').date('2028-02-29')).to.equal('Tue, Feb 29');
    expect(formatsFor('de-DE', 'UTC').date('2026-01-31')).to.equal('Sa., 31. Jan.');
    expect(formatsFor('fr-FR', 'UTC').weekdayName(1)).to.equal('lundi');
    expect(formatsFor('es-ES', 'UTC').monthName(3)).to.equal('marzo');
  });

  it('says relative days, lists, percentages and temperatures as the locale does', () => {
    const us = formatsFor('en-US', 'UTC');
    const de = formatsFor('de-DE', 'UTC');
    expect(us.dayLabel('2026-12-03', '2026-12-02')).to.equal('Tomorrow');
    expect(de.dayLabel('2026-12-02', '2026-12-02')).to.equal('Heute');
    expect(us.relativeDay('2026-12-05', '2026-12-02')).to.equal('in 3 days');
    expect(us.list(['Ana', 'Bo', 'Mia'])).to.equal('Ana, Bo, and Mia');
    expect(de.list(['Ana', 'Bo', 'Mia'])).to.equal('Ana, Bo und Mia');
    expect(us.temperature(22)).to.equal('72°F');
    expect(de.temperature(22)).to.equal('22 °C');
    expect(de.percent(40)).to.equal('40\u00a0%');
    expect(formatsFor('ar-EG', 'UTC').number(1234)).to.equal('١٬٢٣٤');
  });

  it('starts the week where the locale does', () => {
    expect(formatsFor('en-US', 'UTC').firstDayOfWeek()).to.equal(0);
    expect(formatsFor('de-DE', 'UTC').firstDayOfWeek()).to.equal(1);
    expect(formatsFor('ar-EG', 'UTC').firstDayOfWeek()).to.equal(6);
  });

  it('accents what the pseudo-locale formats', () => {
    const pseudo = voiceOf(PSEUDO_LOCALE, 'UTC');
    expect(pseudo.formats.date('2026-12-02')).to.equal(accent('Wed, Dec 2'));
    expect(pseudo.dir).to.equal('ltr');
    expect(voiceOf('ar', 'UTC').dir).to.equal('rtl');
  });
});
