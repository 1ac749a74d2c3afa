/**
 * The signed-in admin's sections: home, the family (name, zone, language, location) and its
 * people. Each page reads and each form writes through the REST route a client would use
 * (rest.ts); a refusal there (a read-only session, a bad value) is the page's answer, and
 * nothing changes. Removing a person asks first (a page of its own, no script), then says what
 * happened and offers to add them back.
 */
import type { PageAnswer, PageRequest, PageRoute } from './context.js';
import { sessionOf } from './context.js';
import { localeSelect, zoneSelect } from './choices.js';
import { pageError } from './errors.js';
import { field } from './forms.js';
import { csrfField, doneBox, e, page, rich, sayer } from './html.js';
import { rest } from './rest.js';

export const KINDS = ['adult', 'child', 'helper', 'caregiver', 'other'] as const;

interface Family {
  slug: string;
  name: string;
  timezone: string;
  locale?: string;
  location: string | null;
}
interface Person {
  id: string;
  name: string;
  kind: string;
  email: string | null;
  phone: string | null;
  locale?: string | null;
}

/** A signed-in page: the menu with the current section marked. */
export function framed(
  r: PageRequest,
  title: string,
  current: string,
  body: string,
  script?: string,
): PageAnswer {
  const s = sessionOf(r);
  return {
    html: page(
      {
        title,
        voice: r.voice,
        nav: { current, csrf: s.csrf, familyName: s.family.name },
        ...(script ? { script } : {}),
      },
      body,
    ),
  };
}

/** A query parameter's one value ('' when missing). */
export const query = (r: PageRequest, name: string): string => {
  const v = r.koa.query[name];
  return typeof v === 'string' ? v : '';
};

const strong = (text: string) => `<strong><bdi>${e(text)}</bdi></strong>`;

async function home(r: PageRequest): Promise<PageAnswer> {
  const { family } = await rest<{ family: Family }>(r, 'GET', '');
  const { people } = await rest<{ people: Person[] }>(r, 'GET', '/people');
  const s = sessionOf(r);
  const say = sayer(r.voice);
  const scopes = r.voice.formats.list(
    s.key.scopes.map((x) => r.voice.say('pages', 'scope', { scope: x })),
  );
  const line = (href: string, link: Parameters<typeof say>[0], what: string) =>
    `<li><a href="${href}">${say(link)}</a> — ${what}</li>`;
  const body = `<p><bdi>${e(family.name)}</bdi> · <bdi>${e(family.timezone)}</bdi>${family.location ? ` · <bdi>${e(family.location)}</bdi>` : ''}</p>
<p class="muted">${s.key.scopes.includes('admin') ? say('signedInAdmin') : say('signedInWith', { scopes })}</p>
<ul class="items">
${line('/people', 'navPeople', say('homePeople', { count: people.length }))}
${line('/devices', 'navDevices', say('homeDevices'))}
${line('/family', 'navFamily', say('homeFamily'))}
${line('/displays', 'navDisplays', say('homeDisplays'))}
${line('/calendars', 'calendarsTitle', say('homeCalendars'))}
${line('/assistants', 'navAssistants', say('homeAssistants'))}
${line('/webhooks', 'navWebhooks', say('homeWebhooks'))}
${line('/notifications', 'navNotifications', say('homeNotifications'))}
${line('/backups', 'navBackups', say('homeBackups'))}
</ul>`;
  return framed(r, family.name, '/', body);
}

async function familyPage(r: PageRequest): Promise<PageAnswer> {
  const { family } = await rest<{ family: Family }>(r, 'GET', '');
  const say = sayer(r.voice);
  const saved = query(r, 'saved') ? doneBox(say('saved'), 'saved') : '';
  const body = `${saved}<form method="post" action="/family">${csrfField(sessionOf(r).csrf)}
<label for="name">${say('fieldName')}</label><input id="name" name="name" required maxlength="200" value="${e(family.name)}">
<label for="timezone">${say('fieldZone')}</label>${zoneSelect(family.timezone)}
<label for="locale">${say('fieldLanguage')}</label>${localeSelect(family.locale ?? 'en')}
<label for="location">${say('fieldLocation')}</label><input id="location" name="location" value="${e(family.location ?? '')}">
<button type="submit">${say('save')}</button></form>`;
  return framed(r, r.voice.say('pages', 'familyTitle'), '/family', body);
}

async function saveFamily(r: PageRequest): Promise<PageAnswer> {
  const location = field(r.form, 'location');
  const locale = field(r.form, 'locale');
  await rest(r, 'PATCH', '', {
    name: field(r.form, 'name'),
    timezone: field(r.form, 'timezone'),
    ...(locale ? { locale } : {}),
    location: location || null,
  });
  return { redirect: '/family?saved=1' };
}

/** What the people page says after a change: added, or removed with a way to add back. */
function peopleNote(r: PageRequest, csrf: string): string {
  const added = query(r, 'added');
  if (added) return doneBox(rich(r.voice, 'addedName', {}, { name: strong(added) }), 'added');
  const removed = query(r, 'removed');
  if (!removed) return '';
  const kind = (KINDS as readonly string[]).includes(query(r, 'kind')) ? query(r, 'kind') : 'adult';
  const say = sayer(r.voice);
  return doneBox(
    `${rich(r.voice, 'personRemoved', {}, { name: strong(removed) })}
<form class="inline" method="post" action="/people">${csrfField(csrf)}<input type="hidden" name="name" value="${e(removed)}"><input type="hidden" name="kind" value="${e(kind)}"><button class="quiet" type="submit" id="undo">${say('undoRemove', { name: removed })}</button></form>
<br><span class="muted">${say('undoNote')}</span>`,
    'removed',
  );
}

async function peoplePage(r: PageRequest): Promise<PageAnswer> {
  const { people } = await rest<{ people: Person[] }>(r, 'GET', '/people');
  const csrf = sessionOf(r).csrf;
  const say = sayer(r.voice);
  const list = people.length
    ? `<ul class="items">${people
        .map(
          (p) =>
            `<li class="row"><span>${strong(p.name)} <span class="muted">${say('kind', { kind: p.kind })}${p.email ? ` · <bdi>${e(p.email)}</bdi>` : ''}${p.phone ? ` · <bdi>${e(p.phone)}</bdi>` : ''}</span></span><span><a href="/people/${e(p.id)}">${say('editPerson', { name: p.name })}</a> · <a href="/people/${e(p.id)}/remove">${say('removeThing', { name: p.name })}</a></span></li>`,
        )
        .join('')}</ul>`
    : `<p>${say('nobodyYet')}</p>`;
  const body = `${peopleNote(r, csrf)}${list}
<h2>${say('addPerson')}</h2>
<form method="post" action="/people">${csrfField(csrf)}
${personFields(r, null)}
<button type="submit">${say('add')}</button></form>`;
  return framed(r, r.voice.say('pages', 'peopleTitle'), '/people', body);
}

/** The person fields of the add and edit forms, filled with `p` (the edit page). */
function personFields(r: PageRequest, p: Person | null): string {
  const say = sayer(r.voice);
  return `<label for="name">${say('fieldName')}</label><input id="name" name="name" required maxlength="200" value="${e(p?.name ?? '')}">
<label for="kind">${say('fieldKind')}</label><select id="kind" name="kind">${KINDS.map((k) => `<option value="${k}"${k === p?.kind ? ' selected' : ''}>${say('kind', { kind: k })}</option>`).join('')}</select>
<label for="email">${say('fieldEmail')}</label><input id="email" name="email" type="email" value="${e(p?.email ?? '')}">
<label for="phone">${say('fieldPhone')}</label><input id="phone" name="phone" type="tel" value="${e(p?.phone ?? '')}">
<label for="locale">${say('fieldPersonLanguage')}</label>${localeSelect(p?.locale ?? null, r.voice.say('pages', 'familyLanguage'))}`;
}

async function personOf(r: PageRequest): Promise<Person> {
  const { people } = await rest<{ people: Person[] }>(r, 'GET', '/people');
  const p = people.find((x) => x.id === r.params[0]);
  if (!p) throw pageError(404, 'personGone');
  return p;
}

async function personPage(r: PageRequest): Promise<PageAnswer> {
  const p = await personOf(r);
  const say = sayer(r.voice);
  const body = `<form method="post" action="/people/${e(p.id)}">${csrfField(sessionOf(r).csrf)}
${personFields(r, p)}
<button type="submit">${say('save')}</button></form>
<p><a href="/people">${say('backPeople')}</a></p>`;
  return framed(r, p.name, '/people', body);
}

async function savePerson(r: PageRequest): Promise<PageAnswer> {
  // Empty email or phone removes it (REST takes null for that).
  const orNull = (name: string) => field(r.form, name) || null;
  await rest(r, 'PATCH', `/people/${encodeURIComponent(r.params[0])}`, {
    name: field(r.form, 'name'),
    kind: field(r.form, 'kind') || 'adult',
    email: orNull('email'),
    phone: orNull('phone'),
    locale: orNull('locale'),
  });
  return { redirect: '/people' };
}

async function addPerson(r: PageRequest): Promise<PageAnswer> {
  const optional = (name: string) => (field(r.form, name) ? { [name]: field(r.form, name) } : {});
  const { person } = await rest<{ person: Person }>(r, 'POST', '/people', {
    name: field(r.form, 'name'),
    kind: field(r.form, 'kind') || 'adult',
    ...optional('email'),
    ...optional('phone'),
    ...optional('locale'),
  });
  return { redirect: `/people?added=${encodeURIComponent(person.name)}` };
}

/** GET: the question, on a page of its own (the list's link leads here: nothing is removed yet). */
async function confirmRemove(r: PageRequest): Promise<PageAnswer> {
  const p = await personOf(r);
  const say = sayer(r.voice);
  const body = `<p>${say('confirmRemoveText', { name: p.name })}</p>
<form method="post" action="/people/${e(p.id)}/remove">${csrfField(sessionOf(r).csrf)}<button type="submit" id="confirm-remove">${say('confirmRemove', { name: p.name })}</button></form>
<p><a href="/people">${say('cancel')}</a></p>`;
  return framed(r, r.voice.say('pages', 'confirmRemoveTitle', { name: p.name }), '/people', body);
}

async function removePerson(r: PageRequest): Promise<PageAnswer> {
  const p = await personOf(r);
  await rest(r, 'DELETE', `/people/${encodeURIComponent(p.id)}`);
  const q = new URLSearchParams({ removed: p.name, kind: p.kind });
  return { redirect: `/people?${q.toString()}` };
}

export const sectionRoutes: PageRoute[] = [
  { method: 'GET', path: /^\/family$/, signedIn: true, handle: familyPage },
  { method: 'POST', path: /^\/family$/, signedIn: true, handle: saveFamily },
  { method: 'GET', path: /^\/people$/, signedIn: true, handle: peoplePage },
  { method: 'POST', path: /^\/people$/, signedIn: true, handle: addPerson },
  { method: 'GET', path: /^\/people\/([^/]+)\/remove$/, signedIn: true, handle: confirmRemove },
  { method: 'POST', path: /^\/people\/([^/]+)\/remove$/, signedIn: true, handle: removePerson },
  { method: 'GET', path: /^\/people\/([^/]+)$/, signedIn: true, handle: personPage },
  { method: 'POST', path: /^\/people\/([^/]+)$/, signedIn: true, handle: savePerson },
];

export { home };
