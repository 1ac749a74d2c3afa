/**
 * Small pieces the running pages share (running.ts, outside.ts): times as the family reads them,
 * lists, names, and the one-button actions.
 */
import type { PageAnswer, PageRequest, PageRoute } from './context.js';
import { e } from './html.js';
import { rest } from './rest.js';

/** An instant as the family reads it (its zone, its locale's clock), or "never". */
export function at(r: PageRequest, iso: string | null | undefined): string {
  return iso ? r.voice.formats.instant(new Date(iso)) : r.voice.say('pages', 'never');
}
export const back = (path: string): PageAnswer => ({ redirect: path });
export const id = (r: PageRequest) => encodeURIComponent(r.params[0]);
export const list = (items: string[], empty: string) =>
  items.length ? `<ul class="items">${items.join('')}</ul>` : `<p>${empty}</p>`;
export const strong = (text: string) => `<strong><bdi>${e(text)}</bdi></strong>`;

/** A one-button action: the REST request, then back to the section. */
export function action(
  path: RegExp,
  method: 'POST' | 'DELETE',
  to: (r: PageRequest) => string,
  section: string,
): PageRoute {
  return {
    method: 'POST',
    path,
    signedIn: true,
    handle: async (r) => {
      await rest(r, method, to(r));
      return back(section);
    },
  };
}
