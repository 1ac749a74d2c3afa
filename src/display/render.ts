/** Drawing the whole view into the page, keeping what the person at the screen was doing. */
import { clear, el } from './dom.js';
import { tick } from './next.js';
import { $, t } from './page.js';
import { S, view } from './state.js';
import { dayEl } from './renderDays.js';
import { choresEl, listEl, pollsEl } from './renderSide.js';

/** Whether someone is typing into a list's field: redrawing would take the field away. */
function typing(): boolean {
  const a = document.activeElement;
  return a instanceof HTMLInputElement && a.value !== '' && $('board').contains(a);
}

/** Puts the focus back on the element named `k` after a redraw. */
function refocus(main: HTMLElement, k: string): void {
  const again = main.querySelector<HTMLElement>('[data-k="' + k.replace(/"/g, '') + '"]');
  if (!again) return;
  again.focus();
  if (again instanceof HTMLInputElement)
    again.setSelectionRange(again.value.length, again.value.length);
}

/** The words the daemon wrote into the page before the script ran, from the page's catalog. */
export function fixedWords(): void {
  $('clock').setAttribute('aria-label', t('clockLabel'));
  $('notice-ok').textContent = t('ok');
  $('undo-button').textContent = t('undo');
}

/** Draws the view; while someone types, only when forced (their own tap). */
export function render(force?: boolean): void {
  if (!force && typing()) {
    S.stale = true;
    return;
  }
  S.stale = false;
  const v = view();
  if (!v) return;
  const active = document.activeElement;
  const focused = active && active.getAttribute ? active.getAttribute('data-k') : null;
  const title = t('title', { family: v.family, name: v.name });
  $('name').textContent = title;
  document.title = title;
  const main = $('board');
  clear(main);
  const days = el('div', 'days');
  for (const d of v.days) days.appendChild(dayEl(v, d));
  main.appendChild(days);
  const side = el('div', 'side');
  side.appendChild(choresEl(v));
  for (const l of v.lists) side.appendChild(listEl(v, l));
  if (v.polls.length) side.appendChild(pollsEl(v));
  main.appendChild(side);
  if (focused) refocus(main, focused);
  tick();
}
