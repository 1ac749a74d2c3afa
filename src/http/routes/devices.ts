/**
 * Devices (admin scope; docs/pages.md): a phone, tablet or computer of a person is an API key
 * with a name and the person, made here with the scopes chosen. The answer carries the key once
 * and a pairing link (`/pair/<token>`, 10 minutes) whose page sets the device up per client;
 * the household pages add devices through this same route. Revoking stops the key at once.
 */
import { NotFound } from '../../domain/shared/errors.js';
import { Invalid } from '../../domain/shared/errors.js';
import { listPeople } from '../../domain/people/people.js';
import { deviceView } from '../../domain/family/devices.js';
import type { HouseholdAccess } from '../../family/access.js';
import type { ApiKeyRecord } from '../../store/types.js';
import { defineRoutes, route } from '../route.js';
import {
  CreateDeviceBody,
  DEVICE_CREATED_RESPONSE,
  DEVICE_LIST_RESPONSE,
  DEVICE_REVOKED_RESPONSE,
} from './devices.schema.js';

const tags = ['Devices'];
const base = '/devices';

export function deviceRoutes(access: HouseholdAccess) {
  return defineRoutes([
    route({
      method: 'get',
      path: base,
      tags,
      scope: 'admin',
      summary: 'List the devices',
      description:
        'Devices that still work, by person (people in the order they were added, then devices of nobody), oldest first, with their last use.',
      response: DEVICE_LIST_RESPONSE,
      handler: async ({ family }) => {
        const order = await family.read((s) => listPeople(s).map((p) => p.id));
        const rank = (k: ApiKeyRecord) =>
          k.personId === null ? order.length : order.indexOf(k.personId);
        const devices = access
          .listDevices(family.info.id)
          .sort((a, b) => rank(a) - rank(b) || a.createdAt.localeCompare(b.createdAt));
        return { ok: true, devices: devices.map(deviceView) };
      },
    }),
    route({
      method: 'post',
      path: base,
      tags,
      scope: 'admin',
      status: 201,
      body: CreateDeviceBody,
      summary: 'Add a device',
      description:
        'Makes its API key (shown only in this answer) and a one-use pairing page, valid for 10 minutes: open `pairing.url` on the device (or scan its QR code on the household pages).',
      response: DEVICE_CREATED_RESPONSE,
      handler: async ({ family, body, services, koa }) => {
        const personId = body.personId ?? null;
        if (personId !== null) {
          const known = await family.read((s) => listPeople(s).some((p) => p.id === personId));
          if (!known) throw Invalid.at(['personId'], `no person "${personId}" in this family`);
        }
        const made = await access.createDevice(family.info.id, body, services.now());
        const origin = services.addresses.forRequest(koa);
        return {
          ok: true,
          device: deviceView(made.record),
          apiKey: made.apiKey,
          pairing: { url: `${origin}/pair/${made.pairingToken}`, expiresAt: made.expiresAt },
        };
      },
    }),
    route({
      method: 'delete',
      path: `${base}/:deviceId`,
      tags,
      scope: 'admin',
      summary: 'Revoke a device',
      description:
        'Its key stops working with the next request, its pairing link too, and the household pages sessions signed in with it end in the same write.',
      response: DEVICE_REVOKED_RESPONSE,
      handler: async ({ family, params, services }) => {
        const device = access.listDevices(family.info.id).find((d) => d.id === params.deviceId);
        if (!device) throw new NotFound(`No device ${params.deviceId} in this family`);
        return {
          ok: true,
          device: deviceView(await access.revoke(family.info.id, device.id, services.now())),
        };
      },
    }),
  ]);
}
