/**
 * What every credential kind may do at every door: the one table each door is held to
 * (docs/design.md, "Credentials × doors", is generated from it and a test checks both the
 * document and the running daemon against it). A cell that starts with "—" means the door
 * refuses that credential presented to it directly; the rest of the cell says what it may do.
 *
 * Every kind resolves in the door core to one principal: its family, what it may do (scopes or
 * actions) and what it may see. Derived credentials name their source and end with it: a
 * session (`derivedFrom`) with the key or device it was signed in with, an OAuth grant with the
 * key that approved it, a pairing link with its device, a stream ticket with its key.
 */
export const DOORS = [
  'REST',
  'CalDAV',
  'MCP',
  'live stream',
  'household pages',
  'display',
  'public links',
  'OAuth',
] as const;
export type DoorName = (typeof DOORS)[number];

export const CREDENTIAL_KINDS = [
  'API key',
  'device key',
  'OAuth access token',
  'OAuth code / refresh token',
  'page session',
  'sign-in link',
  'setup code',
  'pairing link',
  'stream ticket',
  'display token',
  'share token',
] as const;
export type CredentialKindName = (typeof CREDENTIAL_KINDS)[number];

const NO = '—';
const none = (except: Partial<Record<DoorName, string>>): Record<DoorName, string> =>
  Object.fromEntries(DOORS.map((d) => [d, except[d] ?? NO])) as Record<DoorName, string>;

const KEY: Partial<Record<DoorName, string>> = {
  REST: 'its scopes, its family (`x-api-key`)',
  CalDAV: 'its scopes (Basic: family slug, key)',
  MCP: 'its scopes (`x-api-key` or Bearer)',
  'live stream': 'read (`x-api-key`)',
  'household pages': 'signs in: a session with its scopes, ended with it',
  OAuth: 'approves a grant on the consent page (its scopes at most)',
};

export const CREDENTIAL_TABLE: Record<CredentialKindName, Record<DoorName, string>> = {
  'API key': none(KEY),
  'device key': none({ ...KEY, 'household pages': KEY['household pages'] }),
  'OAuth access token': none({
    REST: '— (only as an MCP tool call inside this process)',
    MCP: "the grant's scopes, at the resource it was made for",
  }),
  'OAuth code / refresh token': none({ OAuth: 'one exchange, spent in the write that reads it' }),
  'page session': none({
    REST: "— (only as the pages' own call inside this process: its source's scopes)",
    'household pages': "its source's scopes; forms need its CSRF token; ten per key",
  }),
  'sign-in link': none({ 'household pages': 'one admin session, once, within 10 minutes' }),
  'setup code': none({ 'household pages': 'the first-run setup and its admin session, once' }),
  'pairing link': none({
    'household pages':
      'GET: the device’s name; the first POST: its key, once; the profile for that browser, 5 minutes',
  }),
  'stream ticket': none({ 'live stream': 'one connection within a minute, as its key (read)' }),
  'display token': none({
    display:
      'its page and stream; if interactive, actions on what it shows now; answers as it renders',
  }),
  'share token': none({ 'public links': 'the calendar feed or plan page it names (read-only)' }),
};

/** Whether a door takes a credential presented to it directly. */
export const allowed = (kind: CredentialKindName, door: DoorName): boolean =>
  !CREDENTIAL_TABLE[kind][door].startsWith(NO);

/** The table as docs/design.md shows it (Markdown). */
export function credentialTableMarkdown(): string {
  const head = `| credential | ${DOORS.join(' | ')} |`;
  const rule = `|${' --- |'.repeat(DOORS.length + 1)}`;
  const rows = CREDENTIAL_KINDS.map(
    (k) => `| **${k}** | ${DOORS.map((d) => CREDENTIAL_TABLE[k][d]).join(' | ')} |`,
  );
  return [head, rule, ...rows].join('\n');
}
