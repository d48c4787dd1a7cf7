import { languageFromAcceptHeader } from '@werkwissen/shared';
import Provider, {
  type Configuration,
  errors,
  interactionPolicy,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import type { AppContext } from '../../app-context.ts';
import { loadUserActor } from '../../core/actor.ts';
import { translate } from '../../i18n/translator.ts';
import { oauthAdapter } from './oauth-adapter.ts';
import { oauthKeys } from './oauth-keys.ts';
import { userForActivity } from './oauth-records.queries.ts';
import { INTERACTION_PATH, MCP_SCOPE, OAUTH_PATH, OAUTH_TTL, oauthUrls } from './oauth-urls.ts';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Every authorization goes through the product's sign-in and consent page: the provider's own session (a cookie of
 * its own) never stands in for the product's, which may have ended or belong to someone else by now.
 */
function policy() {
  const { base, Check } = interactionPolicy;
  const prompts = base();
  prompts
    .get('login')!
    .checks.add(
      new Check(
        'product_sign_in',
        'The product signs the user in and asks for consent on every authorization',
        (c) => (c.oidc.result?.login ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT),
      ),
    );
  return prompts;
}

/** An activity entry of the authorization server: a token issued, a grant revoked, a client registered. */
async function logActivity(
  ctx: AppContext,
  k: KoaContextWithOIDC,
  action: string,
  userId: string | undefined,
  after: Record<string, unknown>,
) {
  const user = userId
    ? await userForActivity(ctx.db, userId).catch((err: unknown) => {
        ctx.log.error({ err }, 'OAuth activity entry without its user');
        return undefined;
      })
    : undefined;
  ctx.activity.add({
    actorUserId: user ? (userId ?? null) : null,
    actorEmail: user?.email ?? null,
    impersonatorUserId: null,
    impersonatorEmail: null,
    companyId: user?.companyId ?? null,
    action,
    method: k.method,
    endpoint: `${OAUTH_PATH}${k.path}`,
    statusCode: 200,
    ip: k.ip,
    requestId: null,
    changes: { before: null, after },
    createdAt: new Date(),
  });
}

/**
 * The MCP authorization server (OAuth 2.1 by `oidc-provider`): dynamic client registration (RFC 7591), the code flow
 * with PKCE S256 only, resource indicators (RFC 8707) for the MCP server as the one resource, opaque access tokens
 * bound to it (audience) for an hour, rotating refresh tokens, revocation (RFC 7009). Sign-in and consent are the
 * product's own page; what it stores lives in PostgreSQL (`oauth_records`).
 */
export function createOAuthProvider(ctx: AppContext): Provider {
  const { issuer, resource } = oauthUrls(ctx);
  const keys = oauthKeys(ctx.config.secrets.tokenSigningKey);
  const configuration: Configuration = {
    adapter: oauthAdapter(ctx.db),
    clients: [],
    jwks: { keys: [keys.jwk] },
    cookies: { keys: [keys.cookieKey] },
    findAccount: async (_k, sub) => {
      const actor = await loadUserActor(ctx.db, sub, null);
      return actor ? { accountId: actor.userId, claims: async () => ({ sub: actor.userId }) } : undefined;
    },
    claims: { openid: ['sub'] },
    scopes: ['openid', 'offline_access', MCP_SCOPE],
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      id_token_signed_response_alg: 'ES256',
      token_endpoint_auth_method: 'none',
    },
    enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_k, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget();
          return {
            scope: MCP_SCOPE,
            audience: resource,
            accessTokenTTL: OAUTH_TTL.AccessToken,
            accessTokenFormat: 'opaque',
          };
        },
      },
    },
    interactions: {
      policy: policy(),
      url: (_k, interaction) => `${INTERACTION_PATH}/${interaction.uid}`,
    },
    issueRefreshToken: async (_k, client) => client.grantTypeAllowed('refresh_token'),
    ttl: { ...OAUTH_TTL },
    routes: {
      authorization: '/authorize',
      token: '/token',
      registration: '/register',
      revocation: '/revoke',
      jwks: '/jwks',
    },
    renderError: async (k, out) => {
      const language =
        languageFromAcceptHeader(k.get('accept-language')) ?? ctx.settings.lastRead().general.defaultLanguage;
      const title = escapeHtml(translate(language, 'pages.oauthConsent.errorTitle'));
      const text = escapeHtml(translate(language, 'pages.oauthConsent.errorText'));
      const dir = language === 'ar' ? 'rtl' : 'ltr';
      k.type = 'html';
      k.body = `<!doctype html><html lang="${language}" dir="${dir}"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p><p><code>${escapeHtml(String(out.error))}</code></p></body></html>`;
    },
  };
  const provider = new Provider(issuer, configuration);
  provider.proxy = ctx.config.TRUST_PROXY;
  provider.on('grant.success', (k: KoaContextWithOIDC) => {
    const token = k.oidc.entities.AccessToken;
    void logActivity(ctx, k, 'oauth:token', token?.accountId, {
      clientId: token?.clientId,
      grantType: k.oidc.params?.grant_type,
      expiresAt: token?.exp ? new Date(token.exp * 1000).toISOString() : null,
    });
  });
  provider.on('grant.revoked', (k: KoaContextWithOIDC, grantId: string) => {
    const token = k.oidc.entities.AccessToken ?? k.oidc.entities.RefreshToken;
    void logActivity(ctx, k, 'oauth:revoke', token?.accountId, {
      clientId: k.oidc.client?.clientId,
      grantId,
    });
  });
  provider.on(
    'registration_create.success',
    (k: KoaContextWithOIDC, client: { clientId: string; clientName?: string }) => {
      void logActivity(ctx, k, 'oauth:register', undefined, {
        clientId: client.clientId,
        clientName: client.clientName ?? null,
      });
    },
  );
  provider.on('server_error', (_k: KoaContextWithOIDC, err: Error) => {
    ctx.log.error({ err }, 'OAuth server error');
  });
  return provider;
}
