/**
 * Notifications in the household's language (docs/i18n.md, "Notifications"), through the real
 * server and the local SMTP and ntfy stand-ins: for each shipped locale a reminder, a coverage
 * alert and a digest read in that language on its clock (en-US 5:00 PM, de-DE 17:00, ar-EG
 * Arabic-Indic digits); each email says its language (Content-Language, `lang` and `dir` on the
 * HTML part's root); a person with their own locale gets theirs while the family's differs; a
 * locale changed while serving is followed by the next reminder; built-in collections are named
 * in the family's locale and keep the household's own names.
 */
import { expect } from 'chai';
import { until } from '../helpers/until.js';
import {
  DAY,
  dayIn,
  runAt,
  spaced,
  startStand,
  type Sent,
  type Stand,
} from '../helpers/notifyLocales.js';

interface Expected {
  /** The reminder's and coverage alert's body: the start, then the place. */
  start: string;
  time: string;
  coverage: string;
  digest: string;
  heading: string;
  weather: string;
  dir: 'ltr' | 'rtl';
}

const LOCALES: Record<string, Expected> = {
  'en-US': {
    start: 'Today 5:00 PM',
    time: '5:00 PM',
    coverage: 'Nobody is responsible for Swim',
    digest: 'Digest',
    heading: 'Today (Wed, Jun 10):',
    weather: 'Weather in Berlin: light rain, 37°F to 47°F, 70% chance of rain',
    dir: 'ltr',
  },
  'en-GB': {
    start: 'Today 17:00',
    time: '17:00',
    coverage: 'Nobody is responsible for Swim',
    digest: 'Digest',
    heading: 'Today (Wed 10 Jun):',
    weather: 'Weather in Berlin: light rain, 3°C to 8°C, 70% chance of rain',
    dir: 'ltr',
  },
  'de-DE': {
    start: 'Heute 17:00',
    time: '17:00',
    coverage: 'Niemand kümmert sich um Swim',
    digest: 'Zusammenfassung',
    heading: 'Heute (Mi., 10. Juni):',
    weather: 'Wetter in Berlin: leichter Regen, 3 °C bis 8 °C und 70 % Regenwahrscheinlichkeit',
    dir: 'ltr',
  },
  'fr-FR': {
    start: 'Aujourd’hui à 17:00',
    time: '17:00',
    coverage: 'Personne ne s’occupe de Swim',
    digest: 'Résumé',
    heading: 'Aujourd’hui (mer. 10 juin) :',
    weather: 'Météo à Berlin : pluie faible, de 3 °C à 8 °C et 70 % de risque de pluie',
    dir: 'ltr',
  },
  'es-ES': {
    start: 'Hoy, 17:00',
    time: '17:00',
    coverage: 'Nadie se encarga de Swim',
    digest: 'Resumen',
    heading: 'Hoy (mié, 10 jun):',
    weather: 'El tiempo en Berlin: lluvia débil, de 3 °C a 8 °C y 70 % de probabilidad de lluvia',
    dir: 'ltr',
  },
  'nl-NL': {
    start: 'Vandaag 17:00',
    time: '17:00',
    coverage: 'Niemand regelt Swim',
    digest: 'Overzicht',
    heading: 'Vandaag (wo 10 jun):',
    weather: 'Weer in Berlin: lichte regen, 3°C tot 8°C en 70% kans op regen',
    dir: 'ltr',
  },
  'pt-BR': {
    start: 'Hoje, 17:00',
    time: '17:00',
    coverage: 'Ninguém está cuidando de Swim',
    digest: 'Resumo',
    heading: 'Hoje (qua., 10 de jun.):',
    weather: 'Tempo em Berlin: chuva fraca, 3 °C a 8 °C e 70% de chance de chuva',
    dir: 'ltr',
  },
  'ar-EG': {
    start: 'اليوم ٥:٠٠ م',
    time: '٥:٠٠ م',
    coverage: 'لا أحد مسؤول عن Swim',
    digest: 'الملخص',
    heading: 'اليوم (الأربعاء، ١٠ يونيو):',
    weather: 'الطقس في Berlin: مطر خفيف، ومن ٣°م إلى ٨°م، واحتمال المطر ٧٠٪؜',
    dir: 'rtl',
  },
};

/** The email and the push say what the in-app record says, and the email names its language. */
function sameEverywhere(s: Sent, locale: string, dir: string): void {
  for (const m of s.mails) {
    expect(m.subject).to.equal(s.record.title);
    expect(m.text.replace(/\r\n/g, '\n')).to.equal(s.record.body);
    expect(m.headers['content-language']).to.equal(locale);
    expect(m.html).to.contain(`<html lang="${locale}" dir="${dir}">`);
    expect(m.html).to.contain(`<h1>${s.record.title}</h1>`);
  }
  expect([s.push.title, s.push.message]).to.deep.equal([s.record.title, s.record.body]);
}

describe('notifications in the household’s language', () => {
  let stand: Stand;
  before(async () => {
    stand = await startStand();
  });
  after(async () => {
    await stand.close();
  });

  for (const [locale, x] of Object.entries(LOCALES)) {
    it(`${locale}: a reminder, a coverage alert and a digest in its language, on its clock`, async () => {
      const d = await dayIn(stand, `lang-${locale.toLowerCase()}`, locale);
      expect(d.reminder.record).to.deep.include({ title: 'Swim', body: `${x.start} · Pool` });
      expect(d.coverage.record).to.deep.include({ title: x.coverage, body: `${x.start} · Pool` });
      expect(d.digest.record.title).to.equal(x.digest);
      const lines = spaced(d.digest.record.body).split('\n');
      expect(lines[0]).to.equal(x.heading);
      expect(lines[1]).to.equal(`- ${x.time} Swim (Pool)`);
      expect(lines[lines.length - 1]).to.equal(x.weather);
      for (const s of [d.reminder, d.coverage, d.digest]) sameEverywhere(s, locale, x.dir);
      if (locale === 'ar-EG') expect(d.digest.record.body).not.to.match(/[0-9]/);
    });
  }

  it('sends a person with a locale of their own their language, the rest the family’s', async () => {
    const d = await dayIn(stand, 'own-locale', 'de-DE', [
      { name: 'Ben', email: 'ben@own-locale.test', locale: 'fr-fr', phone: '+33 6 12 34 56 78' },
    ]);
    const people = (await d.api.get('/people')).body.people;
    expect(
      people.map((p: { name: string; locale: string | null }) => [p.name, p.locale]),
    ).to.deep.equal([
      ['Ana', null],
      ['Ben', 'fr-FR'],
    ]);
    const to = (s: Sent, who: string) => s.mails.find((m) => m.to.includes(who))!;
    const ana = to(d.reminder, 'ana@own-locale.test');
    const ben = to(d.reminder, 'ben@own-locale.test');
    expect([ana.text, ana.headers['content-language']]).to.deep.equal([
      'Heute 17:00 · Pool',
      'de-DE',
    ]);
    expect([ben.text, ben.headers['content-language']]).to.deep.equal([
      'Aujourd’hui à 17:00 · Pool',
      'fr-FR',
    ]);
    expect(ben.html).to.contain('<html lang="fr-FR" dir="ltr">');
    expect(stand.sms.sent).to.deep.equal([
      { to: '+33 6 12 34 56 78', message: 'Swim\nAujourd’hui à 17:00 · Pool' },
    ]);
    const alert = to(d.coverage, 'ben@own-locale.test');
    expect(alert.subject).to.equal('Personne ne s’occupe de Swim');
    expect(to(d.digest, 'ben@own-locale.test').subject).to.equal('Résumé');
    // The words kept for Ben's sends are the record's own business, not the API's.
    expect(d.reminder.record).not.to.have.any.keys('locale', 'localized');
    for (const delivery of d.reminder.record.deliveries)
      expect(delivery).not.to.have.property('locale');
    // The household's own copy (in-app) and the family's topic (push) are in the family's locale.
    expect(d.coverage.record.title).to.equal('Niemand kümmert sich um Swim');
    expect(d.coverage.push.title).to.equal('Niemand kümmert sich um Swim');
    // null gives Ben the family's locale again; a tag that is not one is refused naming locale.
    const benId = people[1].id;
    const bad = await d.api.patch(`/people/${benId}`, { locale: 'no such tag!' });
    expect(bad.status).to.equal(400);
    expect(bad.body.issues.map((i: { path: string[] }) => i.path.join('.'))).to.include('locale');
    const cleared = await d.api.patch(`/people/${benId}`, { locale: null });
    expect(cleared.body.person.locale).to.equal(null);
  });

  it('follows a locale changed while serving at the next reminder, without a restart', async () => {
    stand.clock.set(`${DAY}T04:00:00.000Z`);
    const { client: api } = await stand.server.family('changing', { timezone: 'Europe/Berlin' });
    expect((await api.patch('', { locale: 'en-US' })).status).to.equal(200);
    for (const [title, time] of [
      ['Swim', '17:00'],
      ['Run', '19:00'],
    ])
      await api.post('/calendar/events', {
        title,
        date: DAY,
        time,
        responsibilityRequired: false,
        reminders: [{ offsetMinutes: 60 }],
      });
    const reminder = (title: string) =>
      until(`the ${title} reminder`, async () =>
        (await api.get('/notifications?limit=50')).body.notifications.find(
          (n: { kind: string; title: string }) => n.kind === 'reminder' && n.title === title,
        ),
      );
    await runAt(stand, `${DAY}T14:00:00.000Z`);
    expect((await reminder('Swim')).body).to.equal('Today 5:00 PM');
    expect((await api.patch('', { locale: 'de-DE' })).body.family.locale).to.equal('de-DE');
    await runAt(stand, `${DAY}T16:00:00.000Z`);
    expect((await reminder('Run')).body).to.equal('Heute 19:00');
  });

  it('names the built-in collections in the family’s locale, and keeps a name the household gave', async () => {
    const { client: api } = await stand.server.family('seeded', { locale: 'de-DE' });
    const names = async () =>
      (await api.get('/trackers')).body.trackers
        .filter((t: { builtin: boolean }) => t.builtin)
        .map((t: { name: string }) => t.name);
    expect(await names()).to.deep.equal([
      'Familienkalender',
      'Essen',
      'Aufgaben',
      'Routinen',
      'Einkaufsliste',
    ]);
    const chores = (await api.get('/trackers')).body.trackers.find(
      (t: { key: string }) => t.key === 'chores',
    );
    expect(chores.description).to.equal('Aufgaben im Haushalt und wer sie erledigt');
    expect(chores.fields.map((f: { label: string }) => f.label)).to.deep.equal([
      'Wer macht’s',
      'Fällig',
      'Wiederholung',
      'Notizen',
    ]);
    expect((await api.patch('/trackers/groceries', { name: 'Einkauf' })).status).to.equal(200);
    expect((await api.patch('', { locale: 'fr-FR' })).status).to.equal(200);
    expect((await names())[4]).to.equal('Einkauf');
    expect((await names())[0]).to.equal('Familienkalender');
  });
});
