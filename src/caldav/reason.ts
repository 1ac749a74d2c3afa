/**
 * The reason phrase of a refusal's status line (`403 This repeating rule uses BYSETPOS, which
 * the household calendar cannot hold`): vdirsyncer, DAVx⁵ and Home Assistant show a person the
 * status line, not the DAV:error body, so a bare "403 Forbidden" told them nothing. The phrase is
 * the refusal's own message, made safe for a status line: ASCII only (letters with accents lose
 * them, typographic quotes and dashes become plain ones, anything else a "?"), no control
 * characters (CR and LF above all), at most REASON_MAX characters — cut after a clause or a
 * word, with "..." — so no message can break or bloat the head of the answer.
 */

export const REASON_MAX = 160;

const PLAIN: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u2026': '...',
  '\u00df': 'ss',
  '\u00e6': 'ae',
  '\u00c6': 'AE',
  '\u00f8': 'o',
  '\u00d8': 'O',
  '\u00a0': ' ',
  '\u2212': '-',
  '\u2192': '->',
};

/** The message as a status line's reason phrase. */
export function reasonPhrase(message: string): string {
  const ascii = message
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, (c) => (/\s/.test(c) ? ' ' : (PLAIN[c] ?? '?')))
    .replace(/ {2,}/g, ' ')
    .trim();
  if (ascii.length <= REASON_MAX) return ascii;
  const room = ascii.slice(0, REASON_MAX - 3);
  const clause = room.lastIndexOf('; ');
  const word = room.lastIndexOf(' ');
  const cut = clause > REASON_MAX / 2 ? clause : word > REASON_MAX / 2 ? word : room.length;
  return `${room.slice(0, cut).replace(/[ ,;:]+$/, '')}...`;
}
