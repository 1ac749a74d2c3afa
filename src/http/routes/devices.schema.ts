/**
 * Request struct and response schemas of the device endpoints (docs/pages.md): a device is an
 * API key with a name and a person; its key is in the answer of its creation only.
 */
import type { Infer, JsonSchema } from '../../door/schema.js';
import { DEVICE_FIELDS } from '../../domain/family/devices.js';
import { createStruct, recordSchema } from '../../domain/shared/record.js';
import { withExamples } from './collections.schema.js';

// Built from the table (DEVICE_FIELDS): a field is added there, not here.
export const CreateDeviceBody = withExamples(
  createStruct(
    DEVICE_FIELDS,
    'The device: whose it is (`personId`, changes through it are theirs), a name to tell it by, and what its key may do',
  ),
  { personId: 'person_01kaq5m2v8x3c4d5e6f7', name: "Ana's iPhone", scopes: ['read', 'write'] },
);
export type CreateDeviceBody = Infer<typeof CreateDeviceBody>;

export const DEVICE_SCHEMA: JsonSchema = recordSchema(DEVICE_FIELDS);

const EXAMPLE = {
  id: 'A1b2C3d4E5f6',
  name: "Ana's iPhone",
  personId: 'person_01kaq5m2v8x3c4d5e6f7',
  scopes: ['read', 'write'],
  createdAt: '2026-11-27T18:00:00.000Z',
  lastUsedAt: null,
};

export const DEVICE_CREATED_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'device', 'apiKey', 'pairing'],
  properties: {
    ok: { const: true },
    device: DEVICE_SCHEMA,
    apiKey: { type: 'string', description: 'The device key, shown only in this answer' },
    pairing: {
      type: 'object',
      required: ['url', 'expiresAt'],
      properties: {
        url: {
          type: 'string',
          description:
            'The page that sets the device up (`/pair/<token>`): open it on the device; usable for 10 minutes, until its Apple profile is downloaded',
        },
        expiresAt: { type: 'string', format: 'date-time' },
      },
    },
  },
  examples: [
    {
      ok: true,
      device: EXAMPLE,
      apiKey: 'hk_A1b2C3d4E5f6_0123456789abcdefghijABCDEFGHIJ0123',
      pairing: {
        url: 'https://household.example.org/pair/A1b2C3d4E5f6.abcdefghijABCDEFGHIJ0123456789ab',
        expiresAt: '2026-11-27T18:10:00.000Z',
      },
    },
  ],
};

export const DEVICE_LIST_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'devices'],
  properties: { ok: { const: true }, devices: { type: 'array', items: DEVICE_SCHEMA } },
  examples: [{ ok: true, devices: [EXAMPLE] }],
};

export const DEVICE_REVOKED_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['ok', 'device'],
  properties: { ok: { const: true }, device: DEVICE_SCHEMA },
  examples: [{ ok: true, device: EXAMPLE }],
};
