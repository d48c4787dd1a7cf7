import { LOGIN_BY_AREA, oidcContracts } from '@werkwissen/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { noteChange } from '../../http/activity-hook.ts';
import { setSecondFactorCookie, setSessionCookies } from '../../http/cookies.ts';
import { requestLanguage } from '../../http/request-guard.ts';
import { clientInfo, registerRoute, requireActor } from '../../http/route.ts';
import { translate } from '../../i18n/translator.ts';
import { CHALLENGE_SECONDS } from '../auth/second-factor.service.ts';
import { listIdentities, unlinkIdentity } from './identities.service.ts';
import {
  type CallbackAnswer,
  callbackCheck,
  credentialCheck,
  FLOW_SECONDS,
  finishFlow,
  type IdentityCheck,
  startGoogleButton,
  startLink,
  startSignIn,
} from './oidc-flow.service.ts';
import {
  createSignInProvider,
  deleteSignInProvider,
  listSignInProviders,
  offeredProviders,
  updateSignInProvider,
} from './sign-in-providers.service.ts';

/**
 * The flow's cookie: httpOnly and only sent to the callback. SameSite=Lax, not Strict: the provider's redirect back
 * is a navigation from another site, which a Strict cookie would not accompany.
 */
export const OIDC_COOKIE = 'ww_oidc';
const OIDC_COOKIE_PATH = '/api/v1/auth/oidc';

/** Where the browser lands after the callback: the return path, the second step, or the page with the error. */
function landing(answer: CallbackAnswer): string {
  const { result, area, returnTo } = answer;
  const withParam = (path: string, params: Record<string, string>) =>
    `${path}${path.includes('?') ? '&' : '?'}${new URLSearchParams(params)}`;
  if (answer.linking) {
    const back = returnTo ?? '/redirecting';
    return result.kind === 'failed'
      ? withParam(back, { oidcError: result.code })
      : withParam(back, { linked: '1' });
  }
  if (result.kind === 'failed') return withParam(LOGIN_BY_AREA[area], { oidcError: result.code });
  // The sign-in page takes the step from here: the second factor, or (signed in) the session's user, after which
  // the guard sends the browser on to `to` or home.
  const to: Record<string, string> = returnTo ? { to: returnTo } : {};
  if (result.kind === 'signedIn' && 'secondFactor' in result.outcome)
    return withParam(LOGIN_BY_AREA[area], { secondFactor: result.outcome.secondFactor, ...to });
  return withParam(LOGIN_BY_AREA[area], { oidc: 'signedIn', ...to });
}

export function oidcRoutes(app: FastifyInstance, ctx: AppContext): void {
  const secure = ctx.config.PUBLIC_URL.startsWith('https:');
  const setFlowCookie = (reply: FastifyReply, token: string) =>
    reply.setCookie(OIDC_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure,
      path: OIDC_COOKIE_PATH,
      maxAge: FLOW_SECONDS,
    });

  registerRoute(app, oidcContracts.offered, async (req) => ({
    items: await offeredProviders(ctx, req.query.area),
  }));

  registerRoute(app, oidcContracts.start, async (req, reply) => {
    const { url, flowToken } = await startSignIn(ctx, req.params.providerId, req.query);
    setFlowCookie(reply, flowToken);
    return reply.redirect(url, 302);
  });

  registerRoute(app, oidcContracts.startLink, async (req, reply) => {
    const { url, flowToken } = await startLink(ctx, requireActor(req), req.params.providerId, req.body.to);
    setFlowCookie(reply, flowToken);
    return { url };
  });

  registerRoute(app, oidcContracts.googleButton, async (req, reply) => {
    const { flowToken, clientId, nonce } = await startGoogleButton(ctx, req.params.providerId, req.query);
    setFlowCookie(reply, flowToken);
    return { clientId, nonce };
  });

  /** Spends the flow, sets the session or second-factor cookie, notes the sign-in, and answers where to land. */
  async function finish(req: FastifyRequest, reply: FastifyReply, check: IdentityCheck): Promise<string> {
    const answer = await finishFlow(ctx, req.cookies[OIDC_COOKIE], check, clientInfo(req));
    reply.clearCookie(OIDC_COOKIE, { path: OIDC_COOKIE_PATH, secure });
    const { result } = answer;
    if (result.kind === 'linked') req.actor = result.actor;
    if (result.kind === 'signedIn') {
      req.actor = result.outcome.actor;
      if ('secondFactor' in result.outcome)
        setSecondFactorCookie(reply, result.outcome.challengeToken, CHALLENGE_SECONDS, secure);
      else setSessionCookies(reply, result.outcome.tokens, secure);
    }
    const event =
      result.kind === 'failed'
        ? { error: result.code, email: result.email }
        : result.kind === 'linked'
          ? { linked: true }
          : {
              signedIn: !('secondFactor' in result.outcome),
              secondFactor: 'secondFactor' in result.outcome ? result.outcome.secondFactor : null,
              accountCreated: result.created,
              linked: result.linkedNow,
            };
    noteChange(req, { before: null, after: { provider: answer.provider, ...event } });
    return landing(answer);
  }

  registerRoute(app, oidcContracts.callback, async (req, reply) => {
    const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
    return reply.redirect(await finish(req, reply, callbackCheck(ctx, query)), 302);
  });

  registerRoute(app, oidcContracts.credential, async (req, reply) => ({
    location: await finish(req, reply, credentialCheck(req.body.credential)),
  }));

  registerRoute(app, oidcContracts.identities, async (req) => listIdentities(ctx, requireActor(req)));

  registerRoute(app, oidcContracts.unlink, async (req) => {
    const { change } = await unlinkIdentity(ctx, requireActor(req), req.params.identityId);
    noteChange(req, change);
    return { message: translate(requestLanguage(req, ctx), 'account.identities.unlinked') };
  });

  registerRoute(app, oidcContracts.list, async (req) => listSignInProviders(ctx, requireActor(req)));

  registerRoute(app, oidcContracts.create, async (req, reply) => {
    const { provider, change } = await createSignInProvider(ctx, requireActor(req), req.body);
    noteChange(req, change);
    reply.code(201);
    return provider;
  });

  registerRoute(app, oidcContracts.update, async (req) => {
    const { provider, change } = await updateSignInProvider(
      ctx,
      requireActor(req),
      req.params.signInProviderId,
      req.body,
    );
    noteChange(req, change);
    return provider;
  });

  registerRoute(app, oidcContracts.remove, async (req) => {
    const { change } = await deleteSignInProvider(ctx, requireActor(req), req.params.signInProviderId);
    noteChange(req, change);
    return { message: translate(requestLanguage(req, ctx), 'admin.settings.signIn.oidc.deleted') };
  });
}
