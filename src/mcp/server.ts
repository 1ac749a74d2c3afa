/**
 * One MCP server per request (stateless Streamable HTTP): built for the calling key, so
 * tools/list shows only what the key's scopes allow and the descriptions name the family's
 * time zone. Tools and resources are answered by REST calls (dispatch.ts).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { hasScope } from '../family/keys.js';
import type { ApiKeyRecord } from '../store/types.js';
import type { FamilyInfo } from '../domain/shared/state.js';
import { callRoute, getRoute, type RestAnswer, type RestTarget } from './dispatch.js';
import type { CatalogTool } from './catalog.js';

export const UPCOMING_URI = 'household://calendar/upcoming';
export const PEOPLE_URI = 'household://people';
export const UPCOMING_DAYS = 7;

export interface McpRequestContext {
  catalog: Map<string, CatalogTool>;
  key: ApiKeyRecord;
  family: FamilyInfo;
  target: RestTarget;
  now: () => Date;
  version: string;
  /**
   * A tool call REST answered as a write the store could not make, or a family whose owner
   * cannot be reached (507, 503): the door answers the message with that status.
   */
  onUnavailable?: (status: number, retryAfter: string | null) => void;
}

/** REST statuses of a write that may work when tried again (the store, the cluster). */
const RETRYABLE = new Set([503, 507]);

export function buildMcpServer(c: McpRequestContext): Server {
  const server = new Server(
    { name: 'household-organizer', title: 'Household Organizer', version: c.version },
    {
      capabilities: { tools: {}, resources: {} },
      instructions: `Tools and resources of the household "${c.family.name}". Dates are YYYY-MM-DD and times HH:mm, in the family's time zone ${c.family.timezone} unless a tool says otherwise. Use list_collections, list_people and list_plans to find the ids other tools take.`,
    },
  );
  const tz = c.family.timezone;

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...c.catalog.values()]
      .filter((t) => hasScope(c.key, t.scope))
      .map((t) => ({
        name: t.spec.name,
        title: t.spec.title,
        description: t.spec.description.replaceAll('{tz}', tz),
        inputSchema: t.shape.inputSchema,
        annotations: { title: t.spec.title, ...t.spec.annotations },
      })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = c.catalog.get(request.params.name);
    // A tool outside the key's scopes is still dispatched: REST refuses it with its 403 body.
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const answer = await callRoute(
      c.target,
      tool.spec.method,
      tool.spec.path,
      tool.shape,
      request.params.arguments ?? {},
    );
    if (RETRYABLE.has(answer.status)) c.onUnavailable?.(answer.status, answer.retryAfter ?? null);
    return toolResult(answer);
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [
      {
        uri: UPCOMING_URI,
        name: 'upcoming',
        title: 'Calendar: the next 7 days',
        mimeType: 'application/json',
        description: `Calendar occurrences from today through the next ${UPCOMING_DAYS} days (time zone ${tz}), as list_events answers them.`,
      },
      {
        uri: PEOPLE_URI,
        name: 'people',
        title: 'People of the household',
        mimeType: 'application/json',
        description: "The household's people with their ids, as list_people answers them.",
      },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    let answer: RestAnswer;
    if (uri === UPCOMING_URI) {
      const from = dayIn(tz, c.now());
      answer = await getRoute(c.target, '/calendar/events', {
        from,
        to: addDays(from, UPCOMING_DAYS),
        limit: '50',
      });
    } else if (uri === PEOPLE_URI) {
      answer = await getRoute(c.target, '/people');
    } else {
      throw new McpError(ErrorCode.InvalidParams, `Unknown resource: ${uri}`);
    }
    if (answer.status >= 300) {
      const error = (answer.body as { error?: string } | null)?.error ?? `status ${answer.status}`;
      throw new McpError(ErrorCode.InternalError, `Reading ${uri} failed: ${error}`, answer.body);
    }
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(answer.body) }] };
  });

  return server;
}

/**
 * 2xx → the body as structured content and as text; anything else → isError with the error body.
 */
export function toolResult(answer: RestAnswer): CallToolResult {
  const ok = answer.status >= 200 && answer.status < 300;
  const body = answer.body;
  const text = body === null ? JSON.stringify({ ok, status: answer.status }) : JSON.stringify(body);
  const structured =
    body !== null && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : undefined;
  return {
    content: [{ type: 'text', text }],
    ...(structured ? { structuredContent: structured } : {}),
    ...(ok ? {} : { isError: true }),
  };
}

/** The calendar day at `now` in a time zone, YYYY-MM-DD. */
export function dayIn(timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}
