import { createChallenge, type Payload, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../core/app-error.ts';
import { sha256 } from '../../core/token-crypto.ts';
import { botProvider } from '../settings/settings-cache.ts';
import { spendChallenge } from './spent-challenges.queries.ts';

/** How long a solved challenge stays valid, and so how long its signature is remembered against replays. */
const CHALLENGE_MINUTES = 10;

/**
 * ALTCHA's proof of work (protocol v2 of altcha-lib 2 and the widget 3): the browser looks for a counter whose
 * PBKDF2-SHA-256 key of the challenge starts with one zero byte (256 tries on average) at 100 iterations each, about
 * the work of the earlier 50,000 SHA-256 hashes; the server checks a solution with a single key derivation.
 */
export async function altchaChallenge(ctx: AppContext) {
  const { parameters, signature } = await createChallenge({
    algorithm: 'PBKDF2/SHA-256',
    cost: 100,
    deriveKey,
    hmacSignatureSecret: ctx.config.secrets.altchaHmacKey,
    expiresAt: new Date(Date.now() + CHALLENGE_MINUTES * 60_000),
  });
  // Signed whenever a secret is given (altcha-lib throws on an empty one).
  if (!signature) throw new Error('ALTCHA challenge left unsigned');
  return { parameters, signature };
}

/** The widget's payload, base64 of `{ challenge, solution }`; null when it is not that shape. */
function altchaPayload(answer: string): Payload | null {
  const payload = JSON.parse(Buffer.from(answer, 'base64').toString('utf8')) as Partial<Payload> | null;
  return payload?.challenge?.parameters && payload.solution ? (payload as Payload) : null;
}

/**
 * A solution is accepted once: its signature is stored until the challenge expires, in the database, so that a
 * restart or another API process does not accept it again.
 */
async function firstUse(ctx: AppContext, signature: string): Promise<boolean> {
  return spendChallenge(ctx.db, signature, CHALLENGE_MINUTES);
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
  const provider = botProvider(ctx.config, await ctx.settings.current());
  if (provider === 'off') return true;
  if (!answer) return false;
  if (provider === 'altcha') {
    try {
      const payload = altchaPayload(answer);
      if (!payload) return false;
      const { verified } = await verifySolution({
        challenge: payload.challenge,
        solution: payload.solution,
        deriveKey,
        hmacSignatureSecret: ctx.config.secrets.altchaHmacKey,
      });
      const { signature } = payload.challenge;
      return verified && typeof signature === 'string' && (await firstUse(ctx, signature));
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
    // The providers refuse a token seen before too; remembering it here makes that hold without their word.
    return (
      res.ok &&
      ((await res.json()) as { success?: boolean }).success === true &&
      (await firstUse(ctx, `${provider}:${sha256(answer)}`))
    );
  } catch (error) {
    ctx.log.warn({ err: error }, 'bot check could not be verified');
    return false;
  }
}

/**
 * The bot check of a public form, before the form does anything: BOT_CHECK_MISSING (400) without an answer,
 * BOT_CHECK_FAILED with a wrong, expired or already used one. Nothing is asked when the check is switched off. (The
 * sign-in's BOT_CHECK_REQUIRED, 401, is another case: an account after several failed sign-ins.)
 */
export async function requireBotCheck(
  ctx: AppContext,
  answer: string | undefined,
  ip: string,
): Promise<void> {
  if (await verifyBotCheck(ctx, answer, ip)) return;
  throw new AppError(answer ? 'BOT_CHECK_FAILED' : 'BOT_CHECK_MISSING');
}
