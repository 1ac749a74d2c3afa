/**
 * The REST door (docs/api.md): the API under `/api/`, and the daemon's own routes (health,
 * metrics). Its answers and errors are JSON; a path no door owns is answered in its form too.
 * A request names its family by the slug in its path, or else by its key.
 */
import { familyOfRoute, type Door } from '../door/door.js';
import { renderJson } from '../door/jsonForm.js';
import type { Route } from '../door/route.js';
import type { RestServices } from './route.js';

export function restDoor(routes: readonly Route<RestServices>[]): Door<RestServices> {
  return {
    name: 'rest',
    prefixes: ['/api/', '/healthz', '/metrics'],
    familyOf: familyOfRoute,
    render: renderJson,
    routes,
  };
}
