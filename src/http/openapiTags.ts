/**
 * The tags of the published OpenAPI document: every tag an operation may carry, with the
 * description the reference shows for it. openapi.ts refuses a route whose tag is not here.
 */
/** Every tag an operation may carry, in the order the reference shows them. */
export const TAGS: [string, string][] = [
  ['System', 'Health, this document and its reference page. No key needed.'],
  ['Family', 'Which family and which API key a client is using: the first call to check a setup.'],
  [
    'Changes',
    'The family change log: every change in order, for clients that follow it, also live as server-sent events.',
  ],
  [
    'Collections',
    'Trackers (collections of entries) with their typed fields; `calendar`, `meals` and `chores` are built in.',
  ],
  ['Entries', 'The entries of a collection: one at a time or in batches of up to 100.'],
  ['People', "The household's members, referred to by events, entries and keys."],
  [
    'Calendar events',
    "Events of the family's calendar collections, one-off or repeating, with occurrence edits.",
  ],
  [
    'Calendar shares',
    'Read-only ICS feeds of chosen calendars, events or people, for calendar apps (admin scope).',
  ],
  [
    'Family displays',
    'Links to a live page of the coming days, chores and weather for a wall tablet (admin scope to manage).',
  ],
  ['Plans', 'Plans that gather events, notes and polls, and their public share page.'],
  [
    'External calendars',
    'ICS feeds synced into a read-only calendar, refreshed on a schedule; the family lays its own fields over their events (admin scope).',
  ],
  [
    'Notifications',
    'Notifications on four channels, preferences, scheduled routines and checks ahead of events.',
  ],
  ['Webhooks', 'Webhook destinations for home automation, and the signed deliveries they receive.'],
  [
    'Context',
    'Context search over entries, events, people and collections, for assistants and dashboards.',
  ],
  ['Lookups', 'Weather, web search and the readable text of a public web page.'],
  [
    'OAuth grants',
    'Assistants (MCP clients) an admin let in on the OAuth consent page: list and revoke them (admin scope).',
  ],
  [
    'Devices',
    "A person's phones, tablets and computers: each an API key with a name, added with a one-use pairing page that sets it up (admin scope).",
  ],
];
