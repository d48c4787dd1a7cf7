import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

/** Random secrets handed to users (refresh tokens, mail links, API keys); only their hash is stored. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

export const ACCESS_TOKEN_SECONDS = 15 * 60;
/** How many verified access tokens a process remembers (a token is checked once, then looked up until it expires). */
const VERIFIED_TOKENS_MAX = 10_000;

interface VerifiedAccess {
  userId: string;
  sessionId: string;
  /** The token's `exp`, in seconds since the epoch. */
  exp: number;
}
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 60 * 60;

/** Signs and checks access tokens and CSRF tokens with the installation's signing key. */
export class TokenSigner {
  private readonly key: Uint8Array;
  private readonly verified = new Map<string, VerifiedAccess>();
  private readonly secret: string;
  constructor(secret: string) {
    this.secret = secret;
    this.key = new TextEncoder().encode(secret);
  }

  signAccess(userId: string, sessionId: string): Promise<string> {
    return new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuedAt()
      .setExpirationTime(`${ACCESS_TOKEN_SECONDS}s`)
      .sign(this.key);
  }

  /**
   * Returns the user and session of a valid access token, or `expired` / `invalid`. Every request of a session sends
   * the same token, so its signature is checked once and the result remembered until the token expires (expiry is
   * decided as jose decides it: `exp` at or before the current second).
   */
  async verifyAccess(token: string): Promise<{ userId: string; sessionId: string } | 'expired' | 'invalid'> {
    const known = this.verified.get(token);
    if (known) {
      if (known.exp > Math.floor(Date.now() / 1000))
        return { userId: known.userId, sessionId: known.sessionId };
      this.verified.delete(token);
      return 'expired';
    }
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (
        typeof payload.sub !== 'string' ||
        typeof payload.sid !== 'string' ||
        typeof payload.exp !== 'number'
      )
        return 'invalid';
      this.verified.set(token, { userId: payload.sub, sessionId: payload.sid, exp: payload.exp });
      if (this.verified.size > VERIFIED_TOKENS_MAX) this.verified.delete(this.verified.keys().next().value!);
      return { userId: payload.sub, sessionId: payload.sid };
    } catch (error) {
      return (error as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'expired' : 'invalid';
    }
  }

  /** The CSRF token of a session: bound to it, so a token of another or an old session is refused. */
  csrfFor(sessionId: string): string {
    return createHmac('sha256', this.secret).update(`csrf:${sessionId}`).digest('base64url');
  }
}
