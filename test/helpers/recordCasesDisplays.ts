/**
 * The records of test/http/recordTables.e2e.test.ts that an admin sets up for the household:
 * family displays, devices (API keys with a name and a person) and the notification
 * preferences (one record per family, changed one switch at a time).
 */
import { expect } from 'chai';
import type { RecordCase } from './recordTables.js';
import { DISPLAY_FIELDS } from '../../src/domain/displays/displays.js';
import { DEVICE_FIELDS } from '../../src/domain/family/devices.js';
import { PREFERENCE_FIELDS, PREFERENCES_ID } from '../../src/domain/notifications/preferences.js';

export const DISPLAY_DEVICE_PREFERENCE_CASES: RecordCase[] = [
  {
    name: 'family display',
    storeTable: 'displays',
    schemas: { view: 'FamilyDisplay', create: 'CreateDisplayBody', update: 'UpdateDisplayBody' },
    table: DISPLAY_FIELDS,
    responseShowsStored: true,
    async create(client) {
      const person = (await client.post('/people', { name: 'Gran' })).body.person;
      const r = await client.post('/displays', {
        name: ' Kitchen ',
        calendars: ['calendar', 'calendar'],
        personIds: [person.id],
        interactive: true,
        lists: ['groceries'],
        nightFrom: '9:30 PM',
        nightTo: '06:30',
      });
      expect(r.status, r.text).to.equal(201);
      expect(r.body.display).to.include({ name: 'Kitchen', nightFrom: '21:30' });
      expect(r.body.display.calendars).to.deep.equal(['calendar']);
      return r.body.display;
    },
    async samePatch(client, made) {
      // Its own values, one as the table cleans it (a 12-hour time, a repeated calendar).
      const r = await client.patch(`/displays/${made.id as string}`, {
        name: ' Kitchen ',
        calendars: ['calendar', 'calendar'],
        nightFrom: '9:30 PM',
        interactive: true,
      });
      expect(r.status, r.text).to.equal(200);
      return r.body.display;
    },
    async read(client, id) {
      const r = await client.get('/displays');
      return r.body.displays.find((d: { id: string }) => d.id === id);
    },
  },
  {
    name: 'device',
    storeTable: 'keys',
    storedIn: 'keys',
    schemas: { view: 'GET /devices devices', create: 'POST /devices' },
    table: DEVICE_FIELDS,
    responseShowsStored: true,
    async create(client) {
      const person = (await client.post('/people', { name: 'Ana' })).body.person;
      const r = await client.post('/devices', {
        personId: person.id,
        name: " Ana's iPhone ",
        scopes: ['read', 'write'],
      });
      expect(r.status, r.text).to.equal(201);
      expect(r.body.device).to.include({ name: "Ana's iPhone", lastUsedAt: null });
      return r.body.device;
    },
    async read(client, id) {
      const r = await client.get('/devices');
      return r.body.devices.find((d: { id: string }) => d.id === id);
    },
  },
  {
    name: 'notification preferences',
    storeTable: 'notificationPreferences',
    storedId: PREFERENCES_ID,
    storedAt: 'preferences',
    // A row a family never changed, a channel added since (push) reads every kind on.
    olderLacks: ['push'],
    schemas: { view: 'GET /notification-preferences preferences' },
    table: PREFERENCE_FIELDS,
    responseShowsStored: true,
    async create(client) {
      const r = await client.post('/notification-preferences', {
        channel: 'email',
        eventKind: 'digest',
        isEnabled: false,
      });
      expect(r.status, r.text).to.equal(200);
      expect(r.body.preferences.email).to.include({ digest: false, reminder: true });
      return r.body.preferences;
    },
    async read(client) {
      return (await client.get('/notification-preferences')).body.preferences;
    },
  },
];
