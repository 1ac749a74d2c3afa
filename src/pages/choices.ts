/**
 * The choices of the setup and family pages: the time zones, by their current names, and the
 * languages with their formats (docs/pages.md). Each is preselected from the browser when
 * nothing was chosen yet: the zone by a small script (`Intl`'s zone of the browser), the
 * language from `Accept-Language`.
 */
import { e } from './html.js';

/**
 * Old names of zones the tz database renamed, and their current ones. Some ICU versions list
 * only the old name (`Asia/Calcutta`, not `Asia/Kolkata`); a family is offered the current one.
 */
const RENAMED: Readonly<Record<string, string>> = {
  'Asia/Calcutta': 'Asia/Kolkata',
  'Europe/Kiev': 'Europe/Kyiv',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'America/Godthab': 'America/Nuuk',
  'Pacific/Truk': 'Pacific/Chuuk',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Coral_Harbour': 'America/Atikokan',
  'Asia/Dacca': 'Asia/Dhaka',
  'Asia/Thimbu': 'Asia/Thimphu',
  'Asia/Ulan_Bator': 'Asia/Ulaanbaatar',
  'Asia/Ujung_Pandang': 'Asia/Makassar',
  'Europe/Uzhgorod': 'Europe/Kyiv',
  'Europe/Zaporozhye': 'Europe/Kyiv',
};

/** The zones offered: UTC, then every zone of `Intl` by its current name, sorted. */
export function zoneNames(): string[] {
  const current = Intl.supportedValuesOf('timeZone').map((z) => RENAMED[z] ?? z);
  return ['UTC', ...[...new Set(current)].sort()];
}

/** The current name of a zone (`Asia/Calcutta` → `Asia/Kolkata`). */
export const currentZoneName = (zone: string): string => RENAMED[zone] ?? zone;

/** Picks the browser's own zone in the list when it is there; the page works without it. */
export const ZONE_SCRIPT = `(function(){try{var z=Intl.DateTimeFormat().resolvedOptions().timeZone,s=document.getElementById('timezone');if(z&&s&&!s.dataset.chosen){for(var i=0;i<s.options.length;i++){var o=s.options[i];if(o.value===z||o.getAttribute('data-old')===z){s.value=o.value;break}}}}catch(e){}})();`;

const OLD_NAME: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(RENAMED).map(([old, now]) => [now, old]),
);

export function zoneSelect(chosen: string | null): string {
  const zones = zoneNames();
  const picked = chosen ? currentZoneName(chosen) : 'UTC';
  if (!zones.includes(picked)) zones.unshift(picked);
  return `<select id="timezone" name="timezone"${chosen ? ' data-chosen="1"' : ''}>${zones
    .map(
      (z) =>
        `<option${OLD_NAME[z] ? ` data-old="${e(OLD_NAME[z])}"` : ''}${z === picked ? ' selected' : ''}>${e(z)}</option>`,
    )
    .join('')}</select>`;
}

/** The locales offered: each shipped language with the regions whose formats differ most. */
export const LOCALE_CHOICES = [
  'en-US',
  'en-GB',
  'en-AU',
  'en-CA',
  'de-DE',
  'de-AT',
  'de-CH',
  'fr-FR',
  'fr-BE',
  'fr-CA',
  'fr-CH',
  'es-ES',
  'es-MX',
  'es-AR',
  'nl-NL',
  'nl-BE',
  'pt-BR',
  'ar',
  'ar-EG',
  'ar-SA',
  'ar-MA',
] as const;

/** A locale's name in its own language: `Deutsch (Österreich)`. */
function autonym(tag: string): string {
  try {
    return new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/** The closest offered locale to `wanted` (its tag, else the first of its language). */
export function closestLocale(wanted: string): string {
  if ((LOCALE_CHOICES as readonly string[]).includes(wanted)) return wanted;
  const language = wanted.split('-')[0];
  return LOCALE_CHOICES.find((l) => l.split('-')[0] === language) ?? 'en-US';
}

/**
 * The language list. `none` adds a first choice of no locale of its own (a person's: the
 * family's), chosen when `chosen` is null.
 */
export function localeSelect(chosen: string | null, none?: string): string {
  const tags: string[] = [...LOCALE_CHOICES];
  // A family's own tag (set through the API or the CLI) is kept and shown.
  if (chosen && !tags.includes(chosen) && chosen !== 'en') tags.unshift(chosen);
  const picked = chosen === 'en' ? 'en-US' : chosen;
  const first =
    none === undefined ? '' : `<option value=""${picked ? '' : ' selected'}>${e(none)}</option>`;
  return `<select id="locale" name="locale">${first}${tags
    .map(
      (t) =>
        `<option value="${e(t)}" lang="${e(t)}"${t === picked ? ' selected' : ''}>${e(autonym(t))}</option>`,
    )
    .join('')}</select>`;
}
