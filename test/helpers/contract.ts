/**
 * Holds responses to the published OpenAPI document: `await conforms(server, reply, 'post',
 * '/api/v1/families/{familySlug}/trackers')` validates the body against the schema the
 * document gives for that operation and status (ajv, JSON Schema 2020-12).
 */
import { expect } from 'chai';
import Ajv2020 from 'ajv/dist/2020.js';
import type { Reply } from './server.js';

const AjvClass = (Ajv2020 as any).default ?? Ajv2020;
const cache = new WeakMap<object, { ajv: any; doc: any }>();

async function load(baseUrl: string, holder: object): Promise<{ ajv: any; doc: any }> {
  let hit = cache.get(holder);
  if (hit) return hit;
  const doc: any = await (await fetch(`${baseUrl}/api/v1/openapi.json`)).json();
  const ajv = new AjvClass({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: 'openapi', components: doc.components }, 'openapi');
  hit = { ajv, doc };
  cache.set(holder, hit);
  return hit;
}

function rewriteRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rewriteRefs);
  if (schema && typeof schema === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(schema)) {
      out[k] =
        k === '$ref' && typeof v === 'string' && v.startsWith('#/')
          ? `openapi${v}`
          : rewriteRefs(v);
    }
    return out;
  }
  return schema;
}

/** Asserts the reply's body matches the document's schema for (method, path template, status). */
export async function conforms(
  server: { url: string; daemon: object },
  reply: Reply,
  method: string,
  pathTemplate: string,
): Promise<void> {
  const { ajv, doc } = await load(server.url, server.daemon);
  const op = doc.paths?.[pathTemplate]?.[method.toLowerCase()];
  expect(op, `the OpenAPI document has ${method.toUpperCase()} ${pathTemplate}`).to.exist;
  let response = op.responses?.[String(reply.status)];
  // Answers every endpoint of a kind shares are published once, under components/responses.
  const shared = /^#\/components\/responses\/(.+)$/.exec(response?.$ref ?? '');
  if (shared) response = doc.components?.responses?.[shared[1]];
  expect(
    response,
    `the document lists status ${reply.status} for ${method.toUpperCase()} ${pathTemplate}`,
  ).to.exist;
  const content = response.content ?? {};
  const type = (reply.headers.get('content-type') ?? '').split(';')[0].trim();
  expect(
    content,
    `the document lists ${type} for ${method.toUpperCase()} ${pathTemplate} ${reply.status}`,
  ).to.have.property(type);
  const media = content[type];
  if (!media?.schema) return;
  const validate = ajv.compile(rewriteRefs(media.schema));
  const ok = validate(reply.body);
  expect(
    ok,
    `body of ${method.toUpperCase()} ${pathTemplate} ${reply.status} matches the document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(reply.body).slice(0, 500)}`,
  ).to.equal(true);
}
