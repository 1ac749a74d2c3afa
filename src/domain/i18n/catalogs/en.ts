/**
 * The English catalog, the source every other language translates (docs/i18n.md). One section
 * per section; a message is ICU MessageFormat. Keys are camelCase and say what the text is for, not
 * what it says. Each other catalog (`de.ts`, `fr.ts`, …) has exactly these sections and keys.
 */
export const EN = {
  // ── common: words several sections share ──────────────────────────────────────────────────
  common: {
    /** A day and time: "Today 5:00 PM", "Sat, Nov 28 5:00 PM". */
    dayAt: '{day} {time}',
    /** An all-day event's day: "Tomorrow, all day". */
    dayAllDay: '{day}, all day',
  },

  // ── notifications: reminders, digests, briefings, alerts (every channel) ────────────────
  // Texts of the service's own notifications (src/domain/notifications/texts.ts); a start is
  // common.dayAt / dayAllDay, parts of a line are joined with " · ".
  notifications: {
    leaveByAt: 'leave by {time}',
    going: 'Going: {names}',
    responsible: 'Responsible: {names}',
    leaveNowTitle: 'Leave now for {title}',
    leaveNowBody: 'From {origin} · arrive by {time}',
    coverageTitle: 'Nobody is responsible for {title}',
    /** A check whose event was deleted meanwhile. */
    deletedEvent: 'a deleted event',
    briefingTitle: 'Morning briefing',
    digestTitle: 'Digest',
    reminderTitle: 'Reminder',
    /** A day of a briefing: "Today (Wed, Jun 10):". */
    dayHeading: '{day} ({date}):',
    nothingPlanned: 'nothing planned',
    allDay: 'all day',
    /** Inside an event's line of a briefing: "(Pool; going: Ana; leave by 4:30 PM)". */
    goingLower: 'going: {names}',
    choresDue: 'Chores due: {chores}',
    choresNone: 'Chores due: none',
    overdueSince: 'overdue since {date}',
    weather: 'Weather in {place}: {forecast}',
    weatherUnavailable: 'Weather in {place}: no forecast right now',
    temperatureRange: '{low} to {high}',
    rainChance: '{percent} chance of rain',
    /** WMO weather codes, grouped (src/notifications/weather.ts). */
    condition:
      '{condition, select, clear {clear sky} mainlyClear {mainly clear} partlyCloudy {partly cloudy} overcast {overcast} fog {fog} drizzle {drizzle} freezingRain {freezing rain} lightRain {light rain} rain {rain} heavyRain {heavy rain} snow {snow} heavySnow {heavy snow} showers {rain showers} snowShowers {snow showers} thunderstorm {thunderstorm} hail {thunderstorm with hail} other {changeable}}',
    intakeTitle: 'New in {feed}: {titles}',
    intakeOne: '{title} is on the {feed} calendar.',
    intakeMany:
      '{count, plural, one {# event on the {feed} calendar matches} other {# events on the {feed} calendar match}} what you asked to hear about.',
    webhookOffTitle: 'Webhook "{name}" was turned off',
    webhookFailing:
      'Every delivery to {host} has failed for 5 days, so it gets no more events. Fix the receiver, then enable the destination again.',
    webhookGone:
      '{host} answered 410 Gone, so it gets no more events. Enable the destination again if that was a mistake.',
    /** A chore's assignee and when it is due: "Ana, today". */
    choreWhoWhen: '{name}, {when}',
  },

  // ── pages: the household pages, their emails, the consent page ──────────────────────────
  pages: {
    // The frame of every page
    pageTitle: '{title} · Household',
    menu: 'Menu',
    sectionsLabel: 'Sections',
    navHome: 'Home',
    navPeople: 'People',
    navDevices: 'Devices',
    navFamily: 'Family',
    navDisplays: 'Displays',
    navCalendars: 'Calendars',
    navAssistants: 'Assistants',
    navWebhooks: 'Webhooks',
    navNotifications: 'Notifications',
    navBackups: 'Backups',
    signOut: 'Sign out of {family}',
    backHome: 'Back to the household',
    signInLink: 'Sign in',
    // Refusals shown as pages
    titleNotFound: 'Not found',
    titleFailed: 'That did not work',
    titleNotAllowed: 'Not allowed',
    titleTooMany: 'Too many tries',
    titleBroken: 'Something went wrong',
    errorInternal: 'Something went wrong on our side. Try again in a moment.',
    errorMethod: 'This address does not take a {method} request.',
    errorNowhere: 'There is nothing at that address.',
    errorFormType: 'This address takes a form sent by these pages.',
    errorFormSize: 'The form is too large to be sent.',
    errorCsrf:
      'This form has expired or did not come from these pages. Open the page again and retry.',
    errorApi: 'The household did not take that: {reason}',
    // Home
    signedInAdmin: 'Signed in as an admin.',
    signedInWith: 'Signed in with these rights: {scopes}.',
    homePeople: '{count, plural, one {# person} other {# people}}',
    homeDevices: 'add a phone, tablet or computer with a QR code',
    homeFamily: 'name, time zone, language, location',
    homeDisplays: 'the tablet on the wall',
    homeCalendars: 'school, club and holiday feeds',
    homeAssistants: 'AI assistants you let in',
    homeWebhooks: 'tell other systems what changed',
    homeNotifications: 'channels and what the household is sent',
    homeBackups: 'the schedule, and a download now',
    // The family
    familyTitle: 'Family',
    fieldName: 'Name',
    fieldZone: 'Time zone',
    fieldLanguage: 'Language and formats',
    fieldLocation: 'Location (for the weather: a place or “lat,lon”)',
    save: 'Save',
    saved: 'Saved.',
    add: 'Add',
    cancel: 'Cancel',
    // People
    peopleTitle: 'People',
    nobodyYet: 'Nobody yet.',
    addPerson: 'Add a person',
    editPerson: 'Edit {name}',
    removeThing: 'Remove {name}',
    fieldKind: 'Kind',
    kind: '{kind, select, adult {adult} child {child} helper {helper} caregiver {caregiver} other {other}}',
    fieldEmail: 'Email (optional)',
    fieldPhone: 'Phone (optional)',
    fieldPersonLanguage: 'Language of what is sent to them',
    familyLanguage: 'The family’s',
    personGone: 'Nobody with that id lives here (any more).',
    backPeople: 'Back to the people',
    addedName: 'Added {name}.',
    confirmRemoveTitle: 'Remove {name}?',
    confirmRemoveText: '{name} will no longer be one of the household’s people.',
    confirmRemove: 'Yes, remove {name}',
    personRemoved: 'Removed {name}.',
    undoRemove: 'Add {name} back',
    undoNote:
      'Adding back makes a new person with the same name; their email, phone and what was assigned to them are not restored.',
    // First-run setup and sign-in
    setupTitle: 'Set up your household',
    setupWelcome: 'Welcome. This sets up the family on this server and signs you in as its admin.',
    fieldCode: 'Setup code',
    codeHelp: 'Printed when the server started, in its terminal and log (“setup code”).',
    fieldFamilyName: 'Family name',
    fieldPeople: 'The people in it, one name per line',
    setupSubmit: 'Set up and sign in',
    setupWrongCode: 'That is not the setup code. Look for “setup code” where the server started.',
    setupTooMany: 'Too many wrong setup codes from this address',
    setupNoName: 'Give the family a name.',
    setupBadZone: '“{zone}” is not a time zone.',
    setupBadLocale: 'Choose a language from the list.',
    setupUsed: 'This setup code has just been used. Sign in instead.',
    signinTitle: 'Sign in',
    signinByLink: 'This one-time link signs this browser in to the household.',
    continue: 'Continue',
    signinIntro:
      'Sign in with an API key of your family, or open a one-time link made on the server with {command}.',
    fieldKey: 'API key',
    signinSubmit: 'Sign in',
    signinTooMany: 'Too many failed sign-ins from this address',
    signinLinkUsed:
      'This link has been used or is older than 10 minutes. Make a new one with {command}.',
    signinBadKey: 'That key is not valid (unknown, mistyped or revoked).',
    // Displays
    displaysTitle: 'Displays',
    touchOn: 'touch on',
    touchOff: 'touch off',
    since: 'since {when}',
    turnTouchOff: 'Turn touch off for {name}',
    turnTouchOn: 'Turn touch on for {name}',
    noDisplays: 'No displays yet.',
    addDisplay: 'Add a display',
    whereIsIt: 'Where is it?',
    displayExample: 'Kitchen',
    touchChoice: 'People may tick off and add things on it (touch)',
    addDisplaySubmit: 'Add and show its link',
    displayTitle: 'Set up the display',
    displayOpen:
      'Open this link on the tablet on the wall (scan the code with its camera). It is shown only now.',
    displayQr: 'QR code: the link of the new display',
    backDisplays: 'Back to the displays',
    // Assistants
    assistantsTitle: 'Assistants',
    assistantsIntro: 'Assistants connect at {address}; an admin approves each one once.',
    noAssistants: 'No assistant is connected.',
    revoke: 'Revoke {name}',
    scope: '{scope, select, read {read} write {change} admin {manage} other {{scope}}}',
    // Outside calendars
    calendarsTitle: 'Outside calendars',
    feedLine: '{count, plural, one {# event} other {# events}} · updated {when}',
    never: 'never',
    refresh: 'Refresh {name}',
    lastError: 'Last error: {error}',
    noCalendars: 'No outside calendars yet.',
    addFeed: 'Add a calendar feed',
    fieldFeedUrl: 'Its address (https or webcal)',
    fieldOptionalName: 'Name (optional)',
    feedExample: 'School',
    addressRefused:
      'This server does not fetch from {address}: it is {kind, select, private {an address in a home or office network} cgnat {an address of a provider or VPN network} loopback {this machine itself} linkLocal {a link-local address} metadata {a cloud metadata address} other {not a public address}}. The server setting {setting} allows it when set to {value} (it is {current} now).',
    // Webhooks
    webhooksTitle: 'Webhooks',
    disabled: 'disabled',
    sendTest: 'Send a test to {name}',
    recentDeliveries: 'Recent deliveries',
    noDeliveries: 'No deliveries yet.',
    delivery:
      '{when} · {type} · {status, select, succeeded {delivered} retrying {will be retried} failed {failed} other {{status}}}',
    noWebhooks: 'No webhooks yet.',
    addWebhook: 'Add a webhook',
    webhookExample: 'Home Assistant',
    fieldReceiver: 'Receiver address',
    webhookHelp: 'It receives every change of the household, signed (Standard Webhooks).',
    webhookAdded: 'Added {name}. Its signing secret, shown only now: {secret}',
    testReached: 'The test reached {name} (answer {status}).',
    testFailed: 'The test did not reach {name}: {reason}',
    // Devices and keys
    devicesTitle: 'Devices',
    lastUsed: 'last used {when}',
    neverUsed: 'never used',
    nobodyInParticular: 'Nobody in particular',
    noDevices: 'No devices yet.',
    thisBrowser: 'this browser',
    aBrowser: 'browser',
    anApiKey: 'API key',
    devicesByPerson: 'Devices by person',
    addDevice: 'Add a device',
    whoseIsIt: 'Whose is it?',
    deviceExample: 'Ana’s phone',
    itMay: 'It may',
    mayRead: 'read the household',
    mayWrite: 'change it',
    mayAdmin: 'manage it (admin)',
    addDeviceSubmit: 'Add and show its setup code',
    browsersAndKeys: 'Signed-in browsers and API keys',
    deviceTitle: 'Set up the new device',
    deviceScan:
      'Scan this code with the device’s camera, or open the link on it. It works once, for 10 minutes (until {time}), and is shown only now.',
    deviceQr: 'QR code: the setup link of the new device',
    backDevices: 'Back to the devices',
    onlyAdminKeys: 'Only an admin may revoke keys and other browsers.',
    // Notifications
    notificationsTitle: 'Notifications',
    channelsTitle: 'Channels of this server',
    inTheApp: 'In the app',
    always: 'always',
    channelEmail: 'Email',
    channelPush: 'Push (ntfy)',
    channelSms: 'Text messages',
    ready: 'ready',
    notSetUp: 'not set up on this server ({setting})',
    channelsNote: 'Email and text messages go to each person with an address (see People).',
    whatIsSent: 'What the household is sent',
    byEmail: 'By email',
    byPush: 'By push',
    kindName:
      '{kind, select, reminder {Reminders} coverage_alert {Nobody to cover} follow_up_nudge {Follow-ups} digest {The daily summary} intake_update {Forwarded messages} other {{kind}}}',
    kindWhat:
      '{kind, select, reminder {before an event or chore that is due} coverage_alert {when an event needs someone and nobody is going} follow_up_nudge {when a plan still has questions open} digest {what is coming up, once a day} intake_update {when a forwarded message has been read into the calendar} other {}}',
    switchOn: 'on',
    switchOff: 'off',
    turnOn: 'Turn on: {kind}, {channel}',
    turnOff: 'Turn off: {kind}, {channel}',
    // Backups
    backupsTitle: 'Backups',
    onlyAdminBackups: 'Only an admin may see and download backups.',
    schedule: 'Schedule',
    scheduled: 'Every {every}, keeping the last {keep}, in {dir}.',
    dataFolder: '(data folder)/backups',
    notScheduled: 'Not scheduled (set {setting}, for example 1d).',
    backupNote: 'A scheduled backup copies the whole store; restoring it is in {doc}.',
    downloadNow: 'Download now',
    exportText:
      'The family’s export: everything it holds, as one JSON file (what {command} writes; {import} restores it).',
    download: 'Download the export',
    // Pairing a device
    pairTitle: 'Set up this device',
    pairGone:
      'This setup link has been used, has expired (after 10 minutes) or was revoked. Ask for a new one.',
    pairIntro:
      'This sets up {device} for {family}. The link works once: Continue shows the device’s settings, here only, this one time.',
    pairValues:
      'Set up {device} for {family}. The key below is shown here only, this once; the link is now spent.',
    apple: 'iPhone, iPad or Mac',
    appleProfile: 'Download the profile',
    appleSteps:
      '{link} (in this browser, for {minutes} minutes), then open Settings → “Profile Downloaded” → Install. It is not signed, so the device calls it “Not Verified”.',
    android: 'Android (DAVx⁵)',
    androidLink: 'open this link',
    androidSteps: 'With DAVx⁵ installed, {link}; DAVx⁵ fills in its login.',
    androidQr: 'QR code: DAVx⁵ login link',
    thunderbird: 'Thunderbird',
    thunderbirdSteps: 'New Calendar → On the Network, then:',
    homeAssistant: 'Home Assistant',
    homeAssistantSteps: 'Settings → Devices & services → Add integration → CalDAV:',
    mcp: 'Assistants (MCP)',
    username: 'Username',
    location: 'Location',
    password: 'Password',
    url: 'URL',
    serverAddress: 'Server address',
    header: 'Header {name}',
    mcpNote: 'Assistants that sign in with OAuth need only the address.',
    profileGone:
      'The profile is offered for {minutes} minutes after Continue, to the browser that pressed it. Ask for a new setup link.',
    profileName: '{family}: calendars and lists',
    profileText: 'The calendars and lists of {family} for {device}.',
    // The consent page (OAuth)
    consentTitle: 'Connect an assistant',
    consentHeading: 'Connect “{client}” to your household?',
    consentIntro:
      'It asks to use the household’s assistant tools (MCP). Afterwards you are sent back to {where}.',
    consentWhat: 'What may it do?',
    consentRead: 'Read the household: calendar, lists, plans, people.',
    consentWrite:
      'Read and change it: add and edit entries, events, plans and notes, send notifications.',
    consentKey: 'An admin API key of your family',
    consentKeyHelp:
      'The assistant never sees this key. It acts as your family, and as the person the key belongs to. An admin can revoke it at any time.',
    allow: 'Allow',
    deny: 'Deny',
    consentProblemTitle: 'Cannot connect',
    consentProblem: 'This connection cannot be made',
    consentRestart: 'Start again from the assistant’s own settings.',
    consentBadKey: 'That API key is not valid (unknown, mistyped or revoked).',
    consentNotAdmin: 'That key is not an admin key; approving needs a key with the admin scope.',
    consentTooMany: 'Too many wrong keys from this address',
  },

  // ── plan: the plan page and its poll ─────────────────────────────────────────────────────
  plan: {
    phase:
      '{phase, select, unscheduled {Not scheduled} upcoming {Upcoming} happening {Happening now} other {Past}}',
    timesIn: 'Times in {zone}',
    schedule: 'Schedule',
    busy: 'Busy',
    where: 'Where: {place}',
    addToCalendar: 'Add to my calendar',
    polls: 'Polls',
    decided: 'Decided',
    votes: '{count, plural, one {# vote} other {# votes}}',
    chosen: 'chosen',
    notes: 'Notes',
    footer: 'Shared from Household Organizer. This page shows the plan as it is now.',
    notFoundTitle: 'Not found',
    notFoundHeading: 'Nothing here',
    notFoundText: 'This plan is not shared (any more), or the address is mistyped.',
    notScheduled: 'Not scheduled',
    range: '{from} – {to}',
    dayTime: '{day}, {time}',
  },

  // ── display: the wall display (sent to the browser with the page) ───────────────────────
  display: {},

  // ── names: names the daemon makes up (built-in calendars and lists, feeds) ───────────────
  // The built-in collections a new family gets (src/domain/collections/builtins.ts), named in its
  // locale when seeded; a household's own renaming is kept.
  names: {
    calendar: 'Family calendar',
    calendarDescription: 'The household calendar',
    meals: 'Meals',
    mealsDescription: 'Meal plan: what is cooked when and by whom',
    chores: 'Chores',
    choresDescription: 'Household tasks and who does them',
    routines: 'Routines',
    routinesDescription: 'Daily routines, step by step',
    groceries: 'Groceries',
    groceriesDescription: 'The shopping list',
    notes: 'Notes',
    date: 'Date',
    meal: 'Meal',
    cook: 'Cook',
    recipe: 'Recipe',
    assignee: 'Assignee',
    due: 'Due',
    repeats: 'Repeats',
    person: 'Person',
    timeOfDay: 'Time of day',
    steps: 'Steps',
    quantity: 'Quantity',
    aisle: 'Aisle',
  },
} satisfies Record<string, Record<string, string>>;

/** A catalog: each section of the English one, with exactly its keys. */
export type Catalog = {
  readonly [A in keyof typeof EN]: { readonly [K in keyof (typeof EN)[A]]: string };
};
export type Section = keyof Catalog;
