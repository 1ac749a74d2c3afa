/**
 * Every record described by a field table (src/domain/shared/record.ts) is held to it: the
 * published OpenAPI schemas of its view, its create body and its PATCH body say exactly what the
 * table says (which fields, which are required, which take null), and a record makes the round
 * trip create → view → export → import → view unchanged. A record exported without its optional
 * fields (as one written before they existed) reads their defaults after an import.
 */
import { expect } from 'chai';
import { Client, startTestServer, type TestServer } from '../helpers/server.js';
import { changesAfter, lastSeq } from '../helpers/changes.js';
import { exportFamily, importFamily } from '../../src/store/portable.js';
import { fieldNames, sendsNull } from '../../src/domain/shared/record.js';
import {
  exportedRecords,
  locate,
  operationSchema,
  storedIn,
  takesNull,
  type RecordCase,
  type Schema,
} from '../helpers/recordTables.js';
import { SHARE_FIELDS } from '../../src/domain/calendar/shares.js';
import { ROUTINE_FIELDS } from '../../src/domain/notifications/types.js';
import { ROUTINE_DERIVED } from '../../src/domain/notifications/routines.js';
import { DESTINATION_FIELDS } from '../../src/domain/webhooks/types.js';
import { PERSON_DERIVED, PERSON_FIELDS } from '../../src/domain/people/people.js';
import { FEED_FIELDS } from '../../src/domain/feeds/types.js';
import { CHECK_FIELDS } from '../../src/domain/notifications/types.js';
import { NOTE_FIELDS } from '../../src/domain/plans/types.js';
import { NOTE_DERIVED } from '../../src/domain/plans/views.js';
import { CHECK_DERIVED } from '../../src/domain/notifications/checks.js';
import { FEED_DERIVED } from '../../src/domain/feeds/views.js';
import { startIcsServer, type IcsServer } from '../helpers/fakes/icsServer.js';
import { calendar } from '../helpers/fakes/icsText.js';
import { DISPLAY_DEVICE_PREFERENCE_CASES } from '../helpers/recordCasesDisplays.js';
import { COLLECTION_CASES } from '../helpers/recordCasesCollections.js';
import { PLAN_CASES } from '../helpers/recordCasesPlans.js';

/** The calendar feeds a linked feed reads (started by the suite). */
let ics: IcsServer;

const RECORDS: RecordCase[] = [
  {
    name: 'person',
    storeTable: 'people',
    schemas: { view: 'Person', create: 'CreatePersonBody', update: 'UpdatePersonBody' },
    table: PERSON_FIELDS,
    derived: PERSON_DERIVED,
    async create(client) {
      const r = await client.post('/people', {
        name: 'Ana Lima',
        kind: 'child',
        familiarName: 'Nana',
        email: 'ana@example.com',
        phone: '+44 20 7946 0958',
        locale: 'pt-br',
      });
      expect(r.status, r.text).to.equal(201);
      return r.body.person;
    },
    async read(client, id) {
      const r = await client.get('/people');
      return r.body.people.find((p: { id: string }) => p.id === id);
    },
  },
  {
    name: 'calendar share',
    storeTable: 'calendar_shares',
    schemas: { view: 'CalendarShare', create: 'CreateShareBody' },
    table: SHARE_FIELDS,
    async create(client) {
      const person = (await client.post('/people', { name: 'Gran' })).body.person;
      const r = await client.post('/calendar/shares', {
        name: ' Grandparents ',
        categories: ['calendar', 'calendar'],
        personIds: [person.id],
      });
      expect(r.status, r.text).to.equal(201);
      expect(r.body.share).to.include({ name: 'Grandparents' });
      expect(r.body.share.categories).to.deep.equal(['calendar']);
      return r.body.share;
    },
    async read(client, id) {
      const r = await client.get('/calendar/shares');
      return r.body.shares.find((s: { id: string }) => s.id === id);
    },
  },
  {
    name: 'notification routine',
    storeTable: 'notificationRoutines',
    schemas: {
      view: 'NotificationRoutine',
      create: 'CreateRoutineBody',
      update: 'UpdateRoutineBody',
    },
    table: ROUTINE_FIELDS,
    derived: ROUTINE_DERIVED,
    async create(client) {
      const r = await client.post('/notification-routines', {
        cron: '30 6 * * 1-5',
        timezone: 'Europe/Berlin',
        intent: 'digest',
        mode: 'contextual',
        channels: ['in_app', 'push', 'push'],
        isEnabled: false,
        title: ' Morning ',
        message: '  ',
      });
      expect(r.status, r.text).to.equal(201);
      expect(r.body.routine).to.include({ title: 'Morning', message: null, nextRunAt: null });
      expect(r.body.routine.channels).to.deep.equal(['in_app', 'push']);
      return r.body.routine;
    },
    async read(client, id) {
      const r = await client.get('/notification-routines');
      return r.body.routines.find((s: { id: string }) => s.id === id);
    },
  },
  {
    name: 'webhook destination',
    storeTable: 'webhook_destinations',
    schemas: {
      view: 'WebhookDestination',
      create: 'CreateDestinationBody',
      update: 'UpdateDestinationBody',
    },
    table: DESTINATION_FIELDS,
    patchMore: ['rotateSecret'],
    async create(client) {
      const r = await client.post('/webhook-destinations', {
        name: ' Home Assistant ',
        url: 'http://receiver.test/hook',
        eventTypes: ['person.created', 'person.created'],
        enabled: false,
      });
      expect(r.status, r.text).to.equal(201);
      expect(r.body.destination).to.include({ name: 'Home Assistant', disabledReason: 'manual' });
      expect(r.body.destination.eventTypes).to.deep.equal(['person.created']);
      return r.body.destination;
    },
    async read(client, id) {
      const r = await client.get('/webhook-destinations');
      const listed = r.body.destinations.find((d: { id: string }) => d.id === id);
      const { history: _h, usage: _u, ...view } = listed;
      return view;
    },
  },
  {
    name: 'external calendar',
    storeTable: 'calendar_feeds',
    schemas: { view: 'ExternalCalendar', create: 'LinkFeedBody', update: 'UpdateFeedBody' },
    table: FEED_FIELDS,
    derived: FEED_DERIVED,
    patchRequired: ['hint'],
    idKey: 'sourceId',
    async create(client) {
      ics.set('/club.ics', {
        body: calendar(
          [{ uid: 'a', summary: 'Practice', lines: ['DTSTART;VALUE=DATE:20261124'] }],
          ['X-WR-CALNAME:Club'],
        ),
        basic: { username: 'coach', password: 'secret' },
      });
      const r = await client.post('/calendar/external', {
        name: ' Club ',
        url: ics.url('/club.ics').replace('//', '//coach:secret@'),
        color: 'gold',
        hint: '  ',
      });
      expect(r.status, r.text).to.equal(201);
      expect(r.body.feed).to.include({ name: 'Club', hint: null, calendarName: 'Club' });
      expect(r.body.feed.url).to.not.include('secret');
      return r.body.feed;
    },
    async read(client, id) {
      const r = await client.get('/calendar/external');
      return r.body.feeds.find((f: { sourceId: string }) => f.sourceId === id);
    },
  },
  {
    name: 'check',
    storeTable: 'notificationChecks',
    schemas: { create: 'POST /checks' },
    table: CHECK_FIELDS,
    derived: CHECK_DERIVED,
    async create(client) {
      const event = await client.post('/calendar/events', {
        title: 'Swimming',
        date: '2030-06-01',
        time: '10:00',
      });
      expect(event.status, event.text).to.equal(201);
      const seq = await lastSeq(client);
      const r = await client.post('/checks', {
        eventId: event.body.entryId,
        leadHours: 1.5,
        task: ' Pack the bag ',
        channels: ['push', 'in_app', 'push'],
      });
      expect(r.status, r.text).to.equal(201);
      expect(r.body).to.include({ task: 'Pack the bag' });
      // The view is what the change log carries (the answer is the check's run).
      const [logged] = await changesAfter(client, seq);
      const { runAt: _r, occurrenceDate: _o, ...view } = logged.object;
      expect(view.channels).to.deep.equal(['push', 'in_app']);
      return view;
    },
  },
  {
    name: 'plan note',
    storeTable: 'plans',
    within: 'notes',
    schemas: { view: 'PlanNote', create: 'CreateNoteBody', update: 'UpdateNoteBody' },
    table: NOTE_FIELDS,
    derived: NOTE_DERIVED,
    idKey: 'noteId',
    async create(client) {
      const plan = await client.post('/plans', { title: 'Lake weekend' });
      expect(plan.status, plan.text).to.equal(201);
      const r = await client.post(`/plans/${plan.body.planId}/notes`, {
        body: ' Bring the big tent. ',
        showOnSharedPage: true,
      });
      expect(r.status, r.text).to.equal(201);
      expect(r.body.note).to.include({ body: 'Bring the big tent.', onSharedPage: true });
      return r.body.note;
    },
    async read(client, id) {
      for (const { planId } of (await client.get('/plans')).body.plans) {
        const plan = (await client.get(`/plans/${planId}`)).body;
        const note = plan.notes.find((n: { noteId: string }) => n.noteId === id);
        if (note) return note;
      }
      throw new Error(`no note ${id}`);
    },
  },
  ...DISPLAY_DEVICE_PREFERENCE_CASES,
  ...COLLECTION_CASES,
  ...PLAN_CASES,
];

describe('records described by a field table', () => {
  let server: TestServer;
  let other: TestServer;
  let schemas: Record<string, Schema>;
  before(async () => {
    server = await startTestServer();
    other = await startTestServer();
    const doc = (await server.http.get('/api/v1/openapi.json')).body;
    schemas = { ...doc.components.schemas };
    // A body or an answer's record that is not a named schema, by its operation.
    for (const rec of RECORDS)
      for (const spec of Object.values(rec.schemas))
        if (spec?.includes(' ')) schemas[spec] = operationSchema(doc, spec);
    // A view inside another's (`Parent.list[]`): the items of that property.
    for (const { schemas: names } of RECORDS) {
      const [parent, list] = names.view?.replace('[]', '').split('.') ?? [];
      if (list) schemas[names.view!] = schemas[parent].properties![list].items!;
    }
    ics = await startIcsServer();
  });
  after(async () => {
    await server?.close();
    await other?.close();
    await ics?.close();
  });

  for (const rec of RECORDS) {
    describe(rec.name, () => {
      const names = fieldNames(rec.table);
      const facts = (k: string) => rec.table[k];
      const derived = Object.keys(rec.derived ?? {});

      // A record no endpoint answers with (a check) has no view schema to hold to the table.
      const viewName = rec.schemas.view;
      if (viewName)
        it('publishes the view schema the table says: its fields and derived ones, the always-shown required', () => {
          const view = schemas[viewName];
          expect(view, rec.schemas.view).to.exist;
          const shown = names.filter((k) => facts(k).view !== 'never');
          expect(Object.keys(view.properties!).sort()).to.deep.equal([...shown, ...derived].sort());
          const always = names.filter((k) => facts(k).view === 'always');
          expect([...view.required!].sort()).to.deep.equal([...always, ...derived].sort());
          for (const k of always.filter((k) => rec.responseShowsStored || !facts(k).response))
            expect(takesNull(view.properties![k]), `${k} null`).to.equal(!!facts(k).nullable);
        });

      it('publishes the create and PATCH bodies the table says', () => {
        const sent = names.filter((k) => facts(k).create !== 'never');
        const create = rec.schemas.create ? schemas[rec.schemas.create] : { properties: {} };
        expect(Object.keys(create.properties!)).to.deep.equal(sent);
        expect(create.required ?? []).to.deep.equal(
          names.filter((k) => facts(k).create === 'required'),
        );
        if (!rec.schemas.update) {
          expect(
            names.filter((k) => facts(k).patch !== 'never'),
            'no PATCH',
          ).to.deep.equal([]);
          return;
        }
        const update = schemas[rec.schemas.update];
        const patched = names.filter((k) => facts(k).patch === 'value');
        expect(Object.keys(update.properties!)).to.deep.equal([
          ...patched,
          ...(rec.patchMore ?? []),
        ]);
        expect(update.required ?? []).to.deep.equal(rec.patchRequired ?? []);
        for (const k of patched)
          expect(takesNull(update.properties![k]), `PATCH ${k} null`).to.equal(
            sendsNull(facts(k), 'patch'),
          );
      });

      it('makes the round trip create → view → export → import → view unchanged', async () => {
        const slug = `rt-${rec.name.replace(/\W+/g, '-')}-a`;
        const { client } = await server.family(slug);
        const made = await rec.create(client);
        const id = (rec.storedId ?? made[rec.idKey ?? 'id']) as string;
        // The view shows the table's fields (those only when set, when set) and derived ones.
        const shown = names.filter(
          (k) => facts(k).view === 'always' || (facts(k).view === 'whenSet' && k in made),
        );
        expect(Object.keys(made)).to.have.members([...new Set([...shown, ...derived])]);
        if (rec.read) expect(await rec.read(client, id)).to.deep.equal(made);
        const exported = exportFamily(server.daemon.store, slug, new Date());
        await importFamily(other.daemon.store, JSON.parse(JSON.stringify(exported)));
        const here = storedIn(rec, server, slug, id);
        expect(storedIn(rec, other, slug, id)).to.deep.equal(here).and.to.exist;
        if (!rec.read) return;
        const key = await other.key({ slug, scopes: ['admin'] });
        const there = new Client(`${other.url}/api/v1/families/${slug}`, key);
        expect(await rec.read(there, id)).to.deep.equal(made);
      });

      const samePatch = rec.samePatch?.bind(rec);
      if (samePatch)
        it('writes and logs nothing for a PATCH of the values it has', async () => {
          const slug = `rt-${rec.storeTable.toLowerCase().replace(/_/g, '-')}-c`;
          const { client } = await server.family(slug);
          const made = await rec.create(client);
          const seq = await lastSeq(client);
          expect(await samePatch(client, made)).to.deep.equal(made);
          expect(await lastSeq(client)).to.equal(seq);
          expect((await changesAfter(client, seq)).length).to.equal(0);
        });

      // Defaults are read where the record is read; a record no endpoint lists has no reader here.
      const read = rec.read?.bind(rec);
      if (read)
        it('reads the defaults of fields a record was written without', async () => {
          const slug = `rt-${rec.name.replace(/\W+/g, '-')}-b`;
          const { client } = await server.family(slug);
          const made = await rec.create(client);
          const id = (rec.storedId ?? made[rec.idKey ?? 'id']) as string;
          const optional = names.filter(
            (k) => facts(k).create === 'optional' || rec.olderLacks?.includes(k),
          );
          const exported = exportFamily(server.daemon.store, slug, new Date());
          const stored = locate(rec, exportedRecords(rec, exported), id)!;
          for (const k of optional) delete stored[k];
          await importFamily(other.daemon.store, JSON.parse(JSON.stringify(exported)));
          const key = await other.key({ slug, scopes: ['admin'] });
          const there = new Client(`${other.url}/api/v1/families/${slug}`, key);
          const view = await read(there, id);
          // Every always-shown and derived field is there (derived ones read the defaults too).
          const always = names.filter((k) => facts(k).view === 'always');
          expect(Object.keys(view)).to.include.members([...always, ...derived]);
          // A field with a response schema of its own shows something else than what is stored.
          for (const k of optional.filter((k) => rec.responseShowsStored || !facts(k).response)) {
            const d = facts(k).default;
            if (facts(k).view === 'always') expect(view[k], k).to.deep.equal(d ?? null);
            else if (facts(k).view === 'whenSet' && (d === undefined || d === null))
              expect(view, k).to.not.have.property(k);
          }
        });
    });
  }
});
