/**
 * A device (docs/pages.md): a phone, tablet or computer of a person, which is an API key of the
 * family with a name and the person (its `kind` is `device`, src/family/access.ts). The fields
 * a device shows and a create sends are described once, in `DEVICE_FIELDS`; the key's other
 * fields (its secret's hash, its pairing link, its kind) are the key's, never answered.
 */
import {
  cleanSent,
  field,
  timestamp,
  viewFields,
  type CreateOf,
  type RecordOf,
  type ViewOf,
} from '../shared/record.js';
import { S } from '../shared/schema.js';

/** What a key may do; scopes nest (admin implies write, write implies read). */
export const KEY_SCOPES = ['read', 'write', 'admin'] as const;

/**
 * Every field of a device, once (src/domain/shared/record.ts): the create body, the view and the
 * `Device` schema come from here. A device has no PATCH: it is made and revoked.
 */
export const DEVICE_FIELDS = {
  id: field(S.string(), {
    create: 'never',
    patch: 'never',
    view: 'always',
    response: { type: 'string', description: 'The id of its API key (`hk_<id>_…`)' },
  }),
  name: field(S.string({ min: 1, max: 200 }), {
    create: 'required',
    patch: 'never',
    view: 'always',
    clean: (v) => v.trim(),
    check: (v) => v !== '' || 'must not be empty',
    response: { type: 'string' },
  }),
  /** Whose device it is: changes made through it are theirs; null: nobody's. */
  personId: field(S.string({ min: 1, max: 100 }), {
    create: 'optional',
    patch: 'never',
    nullable: true,
    view: 'always',
    response: { type: ['string', 'null'] },
  }),
  scopes: field(S.array(S.enums(KEY_SCOPES), { min: 1, max: 3 }), {
    create: 'required',
    patch: 'never',
    view: 'always',
    response: { type: 'array', items: { type: 'string', enum: [...KEY_SCOPES] } },
  }),
  createdAt: field(timestamp, { create: 'never', patch: 'never', view: 'always' }),
  lastUsedAt: field(timestamp, {
    create: 'never',
    patch: 'never',
    nullable: true,
    view: 'always',
    response: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'Noted at most every 10 minutes',
    },
  }),
};

/** The device's part of its key record. */
export type DeviceFields = RecordOf<typeof DEVICE_FIELDS>;
export type DeviceInput = CreateOf<typeof DEVICE_FIELDS>;
export type DeviceView = ViewOf<typeof DEVICE_FIELDS>;

/** What a create stores of the device's own fields: the name trimmed (a blank one is a 400). */
export function deviceInput(input: DeviceInput): Required<DeviceInput> {
  const sent = cleanSent(DEVICE_FIELDS, input);
  return { name: sent.name, personId: sent.personId ?? null, scopes: sent.scopes };
}

/** A device as the API shows it (its key's other fields are never answered). */
export function deviceView(device: DeviceFields): DeviceView {
  return viewFields(DEVICE_FIELDS, device) as DeviceView;
}
