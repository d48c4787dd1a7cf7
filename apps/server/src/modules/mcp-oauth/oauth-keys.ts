import { createECDH, createHash, hkdfSync } from 'node:crypto';

const b64u = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const derive = (secret: string, info: string) =>
  Buffer.from(hkdfSync('sha256', secret, 'werkwissen-mcp-oauth', info, 32));

/**
 * The authorization server's keys, derived from the installation's token signing key (TOKEN_SIGNING_KEY), so every
 * API process and every restart has the same ones without storing another secret: an ES256 key for what it signs
 * (its JWKS; the MCP tokens themselves are opaque, looked up in the database) and the key of its signed cookies.
 */
export function oauthKeys(secret: string) {
  const d = derive(secret, 'signing');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey();
  const x = b64u(point.subarray(1, 33));
  const y = b64u(point.subarray(33));
  const kid = createHash('sha256').update(`${x}.${y}`).digest('base64url').slice(0, 16);
  return {
    jwk: { kty: 'EC', crv: 'P-256', d: b64u(d), x, y, alg: 'ES256', use: 'sig', kid },
    cookieKey: derive(secret, 'cookies').toString('base64url'),
  };
}
