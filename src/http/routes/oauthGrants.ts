/**
 * Assistants' OAuth grants (admin scope; docs/oauth.md): list them, revoke one. Revoking
 * drops its tokens at once (the next /mcp request answers 401) and logs
 * `oauth_grant.revoked` in the family's change log.
 */
import { Conflict, NotFound } from '../../domain/shared/errors.js';
import { grantView } from '../../domain/oauth/grants.js';
import { route, defineRoutes, type RestServices } from '../route.js';
import { GRANT_LIST_RESPONSE, GRANT_REVOKED_RESPONSE } from './oauthGrants.schema.js';

const tags = ['OAuth grants'];
const base = '/oauth-grants';

function grantsOf(services: RestServices) {
  if (!services.grants) throw new NotFound('This daemon has no OAuth door');
  return services.grants;
}

export default defineRoutes([
  route({
    method: 'get',
    path: base,
    tags,
    scope: 'admin',
    summary: 'List the OAuth grants of assistants (revoked ones too)',
    description:
      'Grants are made on the consent page of `/oauth/authorize` when an admin approves an assistant (MCP client) with an admin key. Oldest first; no tokens.',
    response: GRANT_LIST_RESPONSE,
    handler: ({ services, family }) => ({
      ok: true,
      grants: grantsOf(services).listGrants(family.info.id).map(grantView),
    }),
  }),
  route({
    method: 'delete',
    path: `${base}/:grantId`,
    tags,
    scope: 'admin',
    summary: 'Revoke an OAuth grant',
    description:
      'Its access and refresh tokens stop working at once. Logs oauth_grant.revoked. A grant that is already revoked → 409.',
    response: GRANT_REVOKED_RESPONSE,
    handler: async ({ services, family, params, caller }) => {
      const grants = grantsOf(services);
      const id = params.grantId;
      if (!grants.listGrants(family.info.id).some((g) => g.id === id))
        throw new NotFound(`No OAuth grant ${id} in this family`);
      const outcome = await grants.revokeGrant(id, caller);
      if (!outcome) throw new NotFound(`No OAuth grant ${id} in this family`);
      if (outcome.already)
        throw new Conflict(`OAuth grant ${id} was already revoked at ${outcome.grant.revokedAt}`);
      return { ok: true, grant: grantView(outcome.grant) };
    },
  }),
]);
