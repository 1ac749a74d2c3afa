/**
 * The tools resolved against the daemon's routes once, at start: each tool's route, required
 * scope and input schema. A tool whose route is missing stops the start (a renamed route must
 * not leave the assistant with a tool that answers 404).
 */
import { requiredScope, type AnyRoute } from '../door/route.js';
import type { Scope } from '../store/types.js';
import { toolShape, type ToolShape } from './inputSchema.js';
import { TOOLS, type ToolSpec } from './tools.js';

export interface CatalogTool {
  spec: ToolSpec;
  def: AnyRoute;
  scope: Scope;
  shape: ToolShape;
}

export function buildCatalog(routes: readonly AnyRoute[]): Map<string, CatalogTool> {
  const catalog = new Map<string, CatalogTool>();
  for (const spec of TOOLS) {
    const def = routes.find(
      (r) => r.family !== false && r.method === spec.method && r.path === spec.path,
    );
    if (!def)
      throw new Error(`MCP tool ${spec.name}: no route ${spec.method.toUpperCase()} ${spec.path}`);
    const scope = requiredScope(def);
    if (scope === 'public')
      throw new Error(
        `MCP tool ${spec.name}: route ${spec.path} is public; tools act for a family`,
      );
    catalog.set(spec.name, { spec, def, scope, shape: toolShape(spec, def) });
  }
  return catalog;
}
