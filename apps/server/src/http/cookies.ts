import type { FastifyReply } from 'fastify';
import { ACCESS_TOKEN_SECONDS, REFRESH_TOKEN_SECONDS } from '../core/token-crypto.ts';

export const ACCESS_COOKIE = 'ww_access';
export const REFRESH_COOKIE = 'ww_refresh';
export const CSRF_COOKIE = 'ww_csrf';
export const CSRF_HEADER = 'x-csrf-token';
const REFRESH_PATH = '/api/v1/auth';
/** The pending sign-in between a right password and the second factor (httpOnly, only sent to the auth routes). */
export const SECOND_FACTOR_COOKIE = 'ww_2fa';

export interface IssuedSession {
  accessToken: string;
  refreshToken: string;
  csrfToken: string;
}

/** Tokens travel only in httpOnly SameSite cookies; the CSRF token is readable so the page can echo it. */
export function setSessionCookies(reply: FastifyReply, session: IssuedSession, secure: boolean): void {
  reply.setCookie(ACCESS_COOKIE, session.accessToken, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: ACCESS_TOKEN_SECONDS,
  });
  reply.setCookie(REFRESH_COOKIE, session.refreshToken, {
    httpOnly: true,
    sameSite: 'strict',
    secure,
    path: REFRESH_PATH,
    maxAge: REFRESH_TOKEN_SECONDS,
  });
  reply.setCookie(CSRF_COOKIE, session.csrfToken, {
    httpOnly: false,
    sameSite: 'strict',
    secure,
    path: '/',
    maxAge: REFRESH_TOKEN_SECONDS,
  });
}

export function clearSessionCookies(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(ACCESS_COOKIE, { path: '/', secure });
  reply.clearCookie(REFRESH_COOKIE, { path: REFRESH_PATH, secure });
  reply.clearCookie(CSRF_COOKIE, { path: '/', secure });
}

export function setSecondFactorCookie(
  reply: FastifyReply,
  token: string,
  seconds: number,
  secure: boolean,
): void {
  reply.setCookie(SECOND_FACTOR_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure,
    path: REFRESH_PATH,
    maxAge: seconds,
  });
}

export function clearSecondFactorCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SECOND_FACTOR_COOKIE, { path: REFRESH_PATH, secure });
}
