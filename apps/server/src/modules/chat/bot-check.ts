import { createChallenge, verifySolution } from 'altcha-lib';
import type { AppContext } from '../../app-context.ts';

/** How long a solved challenge stays valid, and so how long its signature is remembered against replays. */
const CHALLENGE_MINUTES = 10;
const used = new Map<string, number>();

export function altchaChallenge(ctx: AppContext) {
  return createChallenge({
    hmacKey: ctx.config.secrets.altchaHmacKey,
    maxNumber: 100_000,
    expires: new Date(Date.now() + CHALLENGE_MINUTES * 60_000),
  });
}

/** A solution is accepted once: its signature is remembered until the challenge expires. */
function firstUse(signature: string): boolean {
  const now = Date.now();
  for (const [key, until] of used) if (until < now) used.delete(key);
  if (used.has(signature)) return false;
  used.set(signature, now + CHALLENGE_MINUTES * 60_000);
  return true;
}

const SITEVERIFY = {
  recaptcha: 'https://www.google.com/recaptcha/api/siteverify',
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
} as const;

/**
 * Verifies a public form's bot check as the installation configured it: ALTCHA (self-hosted proof of work) by
 * default, reCAPTCHA or Turnstile through their documented siteverify endpoints, or nothing when switched off.
 */
export async function verifyBotCheck(
  ctx: AppContext,
  answer: string | undefined,
  ip: string,
): Promise<boolean> {
  const provider = ctx.config.BOT_PROTECTION;
  if (provider === 'off') return true;
  if (!answer) return false;
  if (provider === 'altcha') {
    try {
      const ok = await verifySolution(answer, ctx.config.secrets.altchaHmacKey, true);
      const payload = JSON.parse(Buffer.from(answer, 'base64').toString('utf8')) as { signature?: string };
      return ok && typeof payload.signature === 'string' && firstUse(payload.signature);
    } catch {
      return false;
    }
  }
  try {
    const res = await fetch(SITEVERIFY[provider], {
      method: 'POST',
      body: new URLSearchParams({
        secret: ctx.config.BOT_PROTECTION_SECRET ?? '',
        response: answer,
        remoteip: ip,
      }),
      signal: AbortSignal.timeout(10_000),
    });
    return res.ok && ((await res.json()) as { success?: boolean }).success === true;
  } catch (error) {
    ctx.log.warn({ err: error }, 'bot check could not be verified');
    return false;
  }
}
