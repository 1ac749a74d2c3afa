/**
 * The daemon's OpenAPI document: the paths its routes serve, with the `webhooks` section
 * describing the deliveries it sends beside them.
 */
import { buildOpenApi } from './openapi.js';
import type { AnyRoute } from '../door/route.js';
import { webhooksOpenApi } from './routes/webhooks.schema.js';
import { VERSION } from '../version.js';

export function daemonOpenApi(routes: readonly AnyRoute[], serverUrl: string): unknown {
  const base = buildOpenApi(routes, { version: VERSION, serverUrl }) as {
    components: Record<string, Record<string, unknown>>;
  };
  const hooks = webhooksOpenApi();
  return {
    ...base,
    webhooks: hooks.webhooks,
    components: {
      ...base.components,
      schemas: { ...base.components.schemas, ...hooks.schemas },
      parameters: { ...base.components.parameters, ...hooks.parameters },
    },
  };
}
