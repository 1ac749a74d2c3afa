/**
 * The signed-in admin's sections: home, the family (name, zone, location) and its people. Each
 * page reads and each form writes through the REST route a client would use (rest.ts); a
 * refusal there (a read-only session, a bad value) is the page's answer, and nothing changes.
 */
import type { PageAnswer, PageRequest, PageRoute } from './context.js';
import { sessionOf } from './context.js';
import { PageError } from './errors.js';
import { field } from './forms.js';
import { buttonForm, csrfField, e, page } from './html.js';
import { rest } from './rest.js';
import { zoneSelect } from './signin.js';

export const KINDS = ['adult', 'child', 'helper', 'caregiver', 'other'] as const;

interface Family {
  slug: string;
  name: string;
  timezone: string;
  location: string | null;
}
interface Person {
  id: string;
  name: string;
  kind: string;
  email: string | null;
  phone: string | null;
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
        nav: { current, csrf: s.csrf, familyName: s.family.name },
        ...(script ? { script } : {}),
      },
      body,
    ),
  };
}

async function home(r: PageRequest): Promise<PageAnswer> {
  const { family } = await rest<{ family: Family }>(r, 'GET', '');
  const { people } = await rest<{ people: Person[] }>(r, 'GET', '/people');
  const s = sessionOf(r);
  const body = `<p>${e(family.name)} · ${e(family.timezone)}${family.location ? ` · ${e(family.location)}` : ''}</p>
<p class="muted">Signed in${s.key.scopes.includes('admin') ? ' as an admin' : ` with ${e(s.key.scopes.join(', '))} rights`}.</p>
<ul class="items">
<li><a href="/people">People</a> — ${people.length} ${people.length === 1 ? 'person' : 'people'}</li>
<li><a href="/devices">Devices</a> — add a phone, tablet or computer with a QR code</li>
<li><a href="/family">Family</a> — name, time zone, location</li>
<li><a href="/displays">Displays</a> — the tablet on the wall</li>
<li><a href="/calendars">Outside calendars</a> — school, club and holiday feeds</li>
<li><a href="/assistants">Assistants</a> — AI assistants you let in</li>
<li><a href="/webhooks">Webhooks</a> — tell other systems what changed</li>
<li><a href="/notifications">Notifications</a> — channels and what the household is sent</li>
<li><a href="/backups">Backups</a> — the schedule, and a download now</li>
</ul>`;
  return framed(r, family.name, '/', body);
}

async function familyPage(r: PageRequest): Promise<PageAnswer> {
  const { family } = await rest<{ family: Family }>(r, 'GET', '');
  const body = `<form method="post" action="/family">${csrfField(sessionOf(r).csrf)}
<label for="name">Name</label><input id="name" name="name" required maxlength="200" value="${e(family.name)}">
<label for="timezone">Time zone</label>${zoneSelect(family.timezone)}
<label for="location">Location (for the weather: a place or “lat,lon”)</label><input id="location" name="location" value="${e(family.location ?? '')}">
<button type="submit">Save</button></form>`;
  return framed(r, 'Family', '/family', body);
}

async function saveFamily(r: PageRequest): Promise<PageAnswer> {
  const location = field(r.form, 'location');
  await rest(r, 'PATCH', '', {
    name: field(r.form, 'name'),
    timezone: field(r.form, 'timezone'),
    location: location || null,
  });
  return { redirect: '/family' };
}

async function peoplePage(r: PageRequest): Promise<PageAnswer> {
  const { people } = await rest<{ people: Person[] }>(r, 'GET', '/people');
  const csrf = sessionOf(r).csrf;
  const list = people.length
    ? `<ul class="items">${people
        .map(
          (p) =>
            `<li class="row"><span><strong>${e(p.name)}</strong> <span class="muted">${e(p.kind)}${p.email ? ` · ${e(p.email)}` : ''}${p.phone ? ` · ${e(p.phone)}` : ''}</span></span><span><a href="/people/${e(p.id)}">Edit ${e(p.name)}</a> ${buttonForm(`/people/${p.id}/remove`, csrf, `Remove ${p.name}`)}</span></li>`,
        )
        .join('')}</ul>`
    : '<p>Nobody yet.</p>';
  const body = `${list}
<h2>Add a person</h2>
<form method="post" action="/people">${csrfField(csrf)}
${personFields(null)}
<button type="submit">Add</button></form>`;
  return framed(r, 'People', '/people', body);
}

/** The person fields of the add and edit forms, filled with `p` (the edit page). */
function personFields(p: Person | null): string {
  return `<label for="name">Name</label><input id="name" name="name" required maxlength="200" value="${e(p?.name ?? '')}">
<label for="kind">Kind</label><select id="kind" name="kind">${KINDS.map((k) => `<option${k === p?.kind ? ' selected' : ''}>${k}</option>`).join('')}</select>
<label for="email">Email (optional)</label><input id="email" name="email" type="email" value="${e(p?.email ?? '')}">
<label for="phone">Phone (optional)</label><input id="phone" name="phone" type="tel" value="${e(p?.phone ?? '')}">`;
}

async function personPage(r: PageRequest): Promise<PageAnswer> {
  const { people } = await rest<{ people: Person[] }>(r, 'GET', '/people');
  const p = people.find((x) => x.id === r.params[0]);
  if (!p) throw new PageError(404, 'Nobody with that id lives here (any more).');
  const body = `<form method="post" action="/people/${e(p.id)}">${csrfField(sessionOf(r).csrf)}
${personFields(p)}
<button type="submit">Save</button></form>
<p><a href="/people">Back to the people</a></p>`;
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
  });
  return { redirect: '/people' };
}

async function addPerson(r: PageRequest): Promise<PageAnswer> {
  const optional = (name: string) => (field(r.form, name) ? { [name]: field(r.form, name) } : {});
  await rest(r, 'POST', '/people', {
    name: field(r.form, 'name'),
    kind: field(r.form, 'kind') || 'adult',
    ...optional('email'),
    ...optional('phone'),
  });
  return { redirect: '/people' };
}

async function removePerson(r: PageRequest): Promise<PageAnswer> {
  await rest(r, 'DELETE', `/people/${encodeURIComponent(r.params[0])}`);
  return { redirect: '/people' };
}

export const sectionRoutes: PageRoute[] = [
  { method: 'GET', path: /^\/family$/, signedIn: true, handle: familyPage },
  { method: 'POST', path: /^\/family$/, signedIn: true, handle: saveFamily },
  { method: 'GET', path: /^\/people$/, signedIn: true, handle: peoplePage },
  { method: 'POST', path: /^\/people$/, signedIn: true, handle: addPerson },
  { method: 'POST', path: /^\/people\/([^/]+)\/remove$/, signedIn: true, handle: removePerson },
  { method: 'GET', path: /^\/people\/([^/]+)$/, signedIn: true, handle: personPage },
  { method: 'POST', path: /^\/people\/([^/]+)$/, signedIn: true, handle: savePerson },
];

export { home };
