/**
 * A notification as an email (docs/i18n.md, "Notifications"): the subject is its title, the
 * text part its body, and an HTML part says the same with `lang` and `dir` on its root, so a
 * mail client reads an Arabic notification right to left; `Content-Language` names the locale.
 */
import { directionOf } from '../domain/i18n/locale.js';
import type { EmailMessage } from '../integrations/email.js';

/** A delivery's words and their locale. */
export interface Words {
  title: string;
  body: string;
  locale: string;
}

function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The HTML part: the title as a heading, each line of the body kept. */
export function emailHtml(w: Words): string {
  const lines = w.body.split('\n').map(escapeHtml).join('<br>\n');
  return (
    `<!doctype html>\n<html lang="${escapeHtml(w.locale)}" dir="${directionOf(w.locale)}">` +
    `<head><meta charset="utf-8"><title>${escapeHtml(w.title)}</title></head>\n` +
    `<body><h1>${escapeHtml(w.title)}</h1>\n${lines ? `<p>${lines}</p>\n` : ''}</body></html>\n`
  );
}

export function emailOf(w: Words): EmailMessage {
  return { subject: w.title, text: w.body, html: emailHtml(w), language: w.locale };
}
