/**
 * The second line of defence of a tool call (src/mcp/dispatch.ts): the URL, as the HTTP client
 * resolves it, must still be the tool's own route with the arguments in their places — checked
 * here with values the argument pattern would already refuse.
 */
import { expect } from 'chai';
import { resolvesToRoute } from '../../src/mcp/dispatch.js';
import { PATH_ARGUMENT } from '../../src/mcp/inputSchema.js';

const TEMPLATE = '/api/v1/families/:familySlug/trackers/:collectionKey/entries/:entryId';
const url = (key: string, id: string) =>
  `http://127.0.0.1:8080/api/v1/families/home/trackers/${key}/entries/${id}?limit=5`;

describe('resolvesToRoute (MCP tool calls)', () => {
  it('accepts the route with its arguments in place', () => {
    expect(
      resolvesToRoute(url('packing-list', 'ent_01kaq5m2v8x3c4d5e6f7'), TEMPLATE, {
        familySlug: 'home',
        collectionKey: 'packing-list',
        entryId: 'ent_01kaq5m2v8x3c4d5e6f7',
      }),
    ).to.equal(true);
  });

  it('refuses a URL that climbs out of the route, also when encoded', () => {
    for (const id of ['..', '.', '%2e%2e', '..%2F..', 'a/b']) {
      expect(PATH_ARGUMENT.test(id), id).to.equal(false);
      expect(
        resolvesToRoute(url('packing-list', id), TEMPLATE, {
          familySlug: 'home',
          collectionKey: 'packing-list',
          entryId: id,
        }),
        id,
      ).to.equal(false);
    }
  });

  it('refuses a URL whose segments decode to other values than the arguments', () => {
    expect(
      resolvesToRoute(url('packing-list', 'a%2Fb'), TEMPLATE, {
        familySlug: 'home',
        collectionKey: 'packing-list',
        entryId: 'a%2Fb',
      }),
    ).to.equal(false);
    expect(resolvesToRoute('not a url', TEMPLATE, {})).to.equal(false);
  });
});
