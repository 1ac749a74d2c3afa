/**
 * The public door: what is served without an API key, a share token being the credential —
 * the calendar share feed, the plan page and its `.ics`, the family display, its stream and its
 * actions (an interactive display's taps).
 * Errors are answered in the house's JSON form. A request does not name its family until its
 * token is looked up, so `familyOf` says nothing: on a cluster node, a page whose family
 * another node holds is passed there once serving it finds that out (OwnedElsewhere).
 */
import type { Door } from '../door/door.js';
import { renderJson } from '../door/jsonForm.js';
import type { PublicServices } from './route.js';
import calendarFeed from './calendarFeed.js';
import planIcs from './planIcs.js';
import planPage from './planPage.js';
import displayPage from './displayPage.js';
import displayActions from './displayActions.js';

export function publicDoor(): Door<PublicServices> {
  return {
    name: 'public',
    prefixes: ['/p/', '/share/', '/display/'],
    familyOf: () => null,
    render: renderJson,
    // The .ics route first: /p/:token would otherwise take "<token>.ics" as its token.
    routes: [...calendarFeed, ...planIcs, ...planPage, ...displayPage, ...displayActions],
  };
}
