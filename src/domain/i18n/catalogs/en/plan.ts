/** The English catalog's `plan` section (plan: the plan page and its poll): the source its translations follow. */
export const plan = {
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
} satisfies Record<string, string>;
