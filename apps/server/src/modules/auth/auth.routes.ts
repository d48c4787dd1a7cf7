import { authContracts } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import {
  CSRF_HEADER,
  clearSessionCookies,
  REFRESH_COOKIE,
  setSecondFactorCookie,
  setSessionCookies,
} from '../../http/cookies.ts';
import { requestLanguage } from '../../http/request-guard.ts';
import { clientInfo, registerRoute, requireActor } from '../../http/route.ts';
import { translate } from '../../i18n/translator.ts';
import { updateAccount } from './account.service.ts';
import { confirmEmailChange, requestEmailChange } from './email-change.service.ts';
import { presentCachedMe, presentMe } from './me.presenter.ts';
import { changePassword, forgotPassword, setPasswordWithToken } from './password.service.ts';
import { register, resendVerification, verifyEmail } from './registration.service.ts';
import { CHALLENGE_SECONDS } from './second-factor.service.ts';
import { login, logout, refresh } from './session.service.ts';

/** The identity API: thin handlers that parse (by contract), call a service and present. */
export function authRoutes(app: FastifyInstance, ctx: AppContext): void {
  const secure = ctx.config.PUBLIC_URL.startsWith('https:');
  const message = (req: Parameters<typeof requestLanguage>[0], key: string, vars?: Record<string, unknown>) =>
    translate(requestLanguage(req, ctx), key, vars);

  registerRoute(app, authContracts.register, async (req, reply) => {
    const { userId } = await register(ctx, req.body, req.ip);
    reply.code(201);
    return { userId, message: translate(req.body.language, 'messages.registered') };
  });

  registerRoute(app, authContracts.verifyEmail, async (req) => {
    await verifyEmail(ctx, req.body.token);
    return { message: message(req, 'messages.emailVerified') };
  });

  registerRoute(app, authContracts.resendVerification, async (req) => {
    await resendVerification(ctx, requireActor(req));
    return { message: message(req, 'messages.verificationSent') };
  });

  registerRoute(app, authContracts.changeEmail, async (req) => {
    await requestEmailChange(ctx, requireActor(req), req.body);
    return { message: message(req, 'messages.emailChangeSent', { email: req.body.email }) };
  });

  registerRoute(app, authContracts.confirmEmailChange, async (req) => {
    const { email } = await confirmEmailChange(ctx, req.body.token);
    return { message: message(req, 'messages.emailChanged', { email }) };
  });

  registerRoute(app, authContracts.login, async (req, reply) => {
    const result = await login(ctx, req.body, clientInfo(req));
    req.actor = result.actor;
    if ('secondFactor' in result) {
      setSecondFactorCookie(reply, result.challengeToken, CHALLENGE_SECONDS, secure);
      return { secondFactor: result.secondFactor };
    }
    setSessionCookies(reply, result.tokens, secure);
    return result.me;
  });

  registerRoute(app, authContracts.refresh, async (req, reply) => {
    const csrf = req.headers[CSRF_HEADER];
    const result = await refresh(
      ctx,
      req.cookies[REFRESH_COOKIE],
      typeof csrf === 'string' ? csrf : undefined,
    );
    req.actor = result.actor;
    setSessionCookies(reply, result.tokens, secure);
    return result.me;
  });

  registerRoute(app, authContracts.logout, async (req, reply) => {
    await logout(ctx, req.cookies[REFRESH_COOKIE], req.actor?.sessionId ?? null);
    clearSessionCookies(reply, secure);
    return { message: message(req, 'messages.loggedOut') };
  });

  registerRoute(app, authContracts.csrf, async (req) => {
    const actor = requireActor(req);
    return { csrfToken: actor.sessionId ? ctx.signer.csrfFor(actor.sessionId) : '' };
  });

  registerRoute(app, authContracts.forgotPassword, async (req) => {
    await forgotPassword(ctx, req.body, req.ip);
    return { message: message(req, 'messages.passwordResetSent') };
  });

  registerRoute(app, authContracts.resetPassword, async (req) => {
    const next = await setPasswordWithToken(ctx, req.body, 'reset_password', req.ip);
    return { message: message(req, 'messages.passwordChanged'), ...next };
  });

  registerRoute(app, authContracts.setPassword, async (req) => {
    const next = await setPasswordWithToken(ctx, req.body, 'set_password', req.ip);
    return { message: message(req, 'messages.passwordSet'), ...next };
  });

  registerRoute(app, authContracts.changePassword, async (req) => {
    await changePassword(
      ctx,
      requireActor(req),
      req.body.currentPassword,
      req.body.password,
      req.body.revokeApiKeys,
    );
    return { message: message(req, 'messages.passwordChanged') };
  });

  registerRoute(app, authContracts.me, async (req) => presentCachedMe(ctx, requireActor(req)));

  registerRoute(app, authContracts.updateMe, async (req) => {
    const actor = await updateAccount(ctx, requireActor(req), req.body);
    req.actor = actor;
    return presentMe(ctx, actor);
  });
}
