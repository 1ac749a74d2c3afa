/**
 * The pure parts of the OAuth door: PKCE S256, credential formats, scopes, which redirect
 * URIs may be registered, where the metadata documents live under a path prefix, and the
 * grant log decision.
 */
import { expect } from 'chai';
import {
  formActionSource,
  makeCredential,
  parseCredential,
  parseScopes,
  redirectUriProblem,
  sameHash,
  verifierMatches,
  withImplied,
} from '../../src/oauth/credentials.js';
import { oauthUrls, resourceMetadata, serverMetadata } from '../../src/oauth/metadata.js';
import { apiScopes, decideGrantLogged, type OAuthGrant } from '../../src/domain/oauth/grants.js';
import { FamilyState } from '../../src/domain/shared/state.js';

describe('OAuth credentials', () => {
  it('checks PKCE S256 with the RFC 7636 example and refuses a changed or malformed verifier', () => {
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
    expect(verifierMatches(verifier, challenge)).to.equal(true);
    expect(verifierMatches(`${verifier.slice(0, -1)}c`, challenge)).to.equal(false);
    expect(verifierMatches('short', challenge)).to.equal(false);
    expect(verifierMatches(`${verifier}!`, challenge)).to.equal(false);
  });

  it('parses only its own kind of credential, and compares hashes', () => {
    const code = makeCredential('code');
    expect(code.text).to.match(/^hoc_[0-9A-Za-z]{16}_[0-9A-Za-z]{32}$/);
    const parsed = parseCredential('code', code.text)!;
    expect(parsed.id).to.equal(code.id);
    expect(sameHash(code.secretHash, parsed.secretHash)).to.equal(true);
    expect(parseCredential('access', code.text)).to.equal(null);
    expect(parseCredential('code', `${code.text}x`)).to.equal(null);
    expect(sameHash(undefined, parsed.secretHash)).to.equal(false);
  });

  it('reads scopes: none means all, unknown ones are named, write implies read', () => {
    expect(parseScopes(undefined)).to.deep.equal({ scopes: ['household:read', 'household:write'] });
    expect(parseScopes('household:write  household:read')).to.deep.equal({
      scopes: ['household:read', 'household:write'],
    });
    expect(parseScopes('household:read admin')).to.deep.equal({ unknown: 'admin' });
    expect(withImplied(['household:write'])).to.deep.equal(['household:read', 'household:write']);
    expect(apiScopes(['household:read', 'household:write'])).to.deep.equal(['read', 'write']);
  });

  it('lets https, loopback http and app schemes register as redirect URIs, and nothing else', () => {
    expect(redirectUriProblem('https://claude.ai/api/mcp/auth_callback')).to.equal(null);
    expect(redirectUriProblem('http://127.0.0.1:33418/callback')).to.equal(null);
    expect(redirectUriProblem('http://localhost:6274/oauth/callback')).to.equal(null);
    expect(redirectUriProblem('com.example.app:/oauth')).to.equal(null);
    expect(redirectUriProblem('http://evil.example/cb')).to.contain('https');
    expect(redirectUriProblem('https://a.example/cb#x')).to.contain('fragment');
    expect(redirectUriProblem('javascript:alert(1)')).to.contain('javascript');
    expect(redirectUriProblem('/relative')).to.contain('absolute');
    expect(formActionSource('https://claude.ai/api/mcp/auth_callback')).to.equal(
      'https://claude.ai',
    );
    expect(formActionSource('com.example.app:/oauth')).to.equal('com.example.app:');
  });
});

describe('OAuth metadata', () => {
  it('places the documents at the root and, under a path prefix, also at the inserted paths', () => {
    const root = oauthUrls('https://home.example', '/mcp');
    expect(root.resourceMetadataPaths).to.deep.equal([
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
    ]);
    expect(root.serverMetadataPaths).to.deep.equal(['/.well-known/oauth-authorization-server']);
    const sub = oauthUrls('https://example.org/household', '/mcp');
    expect(sub.resource).to.equal('https://example.org/household/mcp');
    expect(sub.resourceMetadata).to.equal(
      'https://example.org/household/.well-known/oauth-protected-resource/mcp',
    );
    expect(sub.resourceMetadataPaths).to.include(
      '/.well-known/oauth-protected-resource/household/mcp',
    );
    expect(sub.serverMetadataPaths).to.deep.equal([
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-authorization-server/household',
    ]);
    expect(resourceMetadata(sub)).to.include({ resource: 'https://example.org/household/mcp' });
    expect(serverMetadata(sub)).to.include({
      issuer: 'https://example.org/household',
      token_endpoint: 'https://example.org/household/oauth/token',
    });
  });
});

describe('decideGrantLogged', () => {
  it('logs the grant as admins see it, changing nothing of the family', () => {
    const grant: OAuthGrant = {
      id: 'grant_01kaq5m2v8x3c4d5e6f7',
      familyId: 'fam_1',
      clientId: 'mcp_x',
      clientName: 'A',
      scopes: ['household:read'],
      resource: 'https://h.example/mcp',
      keyId: 'K',
      personId: null,
      createdAt: '2026-11-20T10:00:00.000Z',
      revokedAt: null,
    };
    const state = new FamilyState({
      id: 'fam_1',
      slug: 'home',
      name: 'Home',
      timezone: 'UTC',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    const d = decideGrantLogged(state, grant, 'created', undefined as never);
    expect(d.changes).to.deep.equal([]);
    expect(d.events).to.have.length(1);
    expect(d.events[0].type).to.equal('oauth_grant.created');
    expect(d.events[0].object)
      .to.include({ id: grant.id, approvedByKeyId: 'K' })
      .and.not.have.property('familyId');
  });
});
