import { twoFactorContracts as c } from '@werkwissen/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { noteChange } from '../../http/activity-hook.ts';
import { clearSecondFactorCookie, SECOND_FACTOR_COOKIE, setSessionCookies } from '../../http/cookies.ts';
import { requestLanguage } from '../../http/request-guard.ts';
import { clientInfo, registerRoute, requireActor } from '../../http/route.ts';
import { translate } from '../../i18n/translator.ts';
import {
  confirmAccountEnrolment,
  disableOwnSecondFactor,
  pendingChallenge,
  resetSecondFactor,
  secondFactorStatus,
  startAccountEnrolment,
  startEnrolment,
} from './second-factor.service.ts';
import { completeSecondFactor } from './session.service.ts';

/** The second factor: the second step of a sign-in, the account's own settings, the administrator's reset. */
export function twoFactorRoutes(app: FastifyInstance, ctx: AppContext): void {
  const secure = ctx.config.PUBLIC_URL.startsWith('https:');

  registerRoute(app, c.startSignInEnrolment, async (req) => {
    const challenge = await pendingChallenge(ctx, req.cookies[SECOND_FACTOR_COOKIE]);
    return startEnrolment(ctx, challenge.userId);
  });

  registerRoute(app, c.verifySecondFactor, async (req, reply) => {
    const result = await completeSecondFactor(
      ctx,
      req.cookies[SECOND_FACTOR_COOKIE],
      req.body,
      clientInfo(req),
    );
    req.actor = result.actor;
    clearSecondFactorCookie(reply, secure);
    setSessionCookies(reply, result.tokens, secure);
    return { ...result.me, recoveryCodes: result.recoveryCodes };
  });

  registerRoute(app, c.twoFactorStatus, async (req) => secondFactorStatus(ctx, requireActor(req)));

  registerRoute(app, c.startAccountEnrolment, async (req) => startAccountEnrolment(ctx, requireActor(req)));

  registerRoute(app, c.confirmAccountEnrolment, async (req) =>
    confirmAccountEnrolment(ctx, requireActor(req), req.body.code),
  );

  registerRoute(app, c.disableTwoFactor, async (req) => {
    await disableOwnSecondFactor(ctx, requireActor(req), req.body);
    return { message: translate(requestLanguage(req, ctx), 'auth.twoFactor.disabled') };
  });

  registerRoute(app, c.resetUserTwoFactor, async (req, reply) => {
    noteChange(req, await resetSecondFactor(ctx, requireActor(req), req.params.userId));
    reply.code(204);
    return null;
  });
}
