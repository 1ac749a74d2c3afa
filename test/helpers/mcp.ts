/** One MCP message posted to /mcp as plain JSON-RPC over fetch, answered as status, headers, body. */
export interface McpAnswer {
  status: number;
  headers: Headers;
  body: any;
}

export async function mcpCall(
  url: string,
  headers: Record<string, string>,
  method: string,
  params: unknown = {},
): Promise<McpAnswer> {
  const r = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
  });
  const text = await r.text();
  return { status: r.status, headers: r.headers, body: text ? JSON.parse(text) : null };
}

/** A tools/call, answered with its tool result (or the HTTP answer when it is not 200). */
export async function toolCall(
  url: string,
  headers: Record<string, string>,
  name: string,
  args: Record<string, unknown>,
): Promise<McpAnswer> {
  return mcpCall(url, headers, 'tools/call', { name, arguments: args });
}
