import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * Checks AWS Signature Version 4 (header form, as the SDK signs S3 requests) the way S3 does: the request is made
 * canonical (method, path, sorted query, the signed headers, the payload hash the client declared), hashed into the
 * string to sign under the credential's scope, and signed with the key derived from the secret, date, region and
 * service. The payload itself is compared with the declared hash by the caller, once the body has been read.
 */
export interface SigV4Request {
  method: string;
  /** The raw request target: path and query as sent. */
  url: string;
  headers: IncomingHttpHeaders;
}

export type SigV4Result =
  | { ok: true; accessKeyId: string; payloadHash: string }
  | { ok: false; status: number; code: string; message: string };

const ALGORITHM = 'AWS4-HMAC-SHA256';
const MAX_SKEW_MS = 15 * 60 * 1000;
const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^,]+),\s*SignedHeaders=([^,]+),\s*Signature=([0-9a-f]{64})$/;

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding as SigV4 wants it: everything but letters, digits and `-._~`, in upper-case hex. */
function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The path with each segment encoded once (S3 does not normalise `.` or `//`). */
function canonicalPath(path: string): string {
  return path
    .split('/')
    .map((segment) => uriEncode(decodeURIComponent(segment)))
    .join('/');
}

/** Query parameters encoded and sorted by name, then value; a parameter without `=` has the empty value. */
function canonicalQuery(query: string): string {
  if (query === '') return '';
  return query
    .split('&')
    .map((pair) => {
      const at = pair.indexOf('=');
      const name = at < 0 ? pair : pair.slice(0, at);
      const value = at < 0 ? '' : pair.slice(at + 1);
      return [uriEncode(decodeURIComponent(name)), uriEncode(decodeURIComponent(value))] as const;
    })
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  if (value === undefined) return undefined;
  return (Array.isArray(value) ? value.join(',') : value).trim().replace(/\s+/g, ' ');
}

/** The canonical request of SigV4, for the headers the client named as signed. */
export function canonicalRequest(
  request: SigV4Request,
  signedHeaders: string[],
  payloadHash: string,
): string {
  const at = request.url.indexOf('?');
  const path = at < 0 ? request.url : request.url.slice(0, at);
  const query = at < 0 ? '' : request.url.slice(at + 1);
  const headers = signedHeaders
    .map((name) => `${name}:${headerValue(request.headers, name) ?? ''}\n`)
    .join('');
  return [
    request.method,
    canonicalPath(path),
    canonicalQuery(query),
    headers,
    signedHeaders.join(';'),
    payloadHash,
  ].join('\n');
}

/** The key of one day, region and service, derived from the secret. */
function signingKey(secret: string, day: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), 'aws4_request');
}

/** `20130524T000000Z` as a time. */
function amzDate(value: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : Number.NaN;
}

const refuse = (status: number, code: string, message: string): SigV4Result => ({
  ok: false,
  status,
  code,
  message,
});

/** Verifies a request's signature with the secret of the access key it names. */
export function verifySigV4(
  request: SigV4Request,
  secretOf: (accessKeyId: string) => string | undefined,
  region: string,
  now: Date = new Date(),
): SigV4Result {
  const authorization = headerValue(request.headers, 'authorization');
  if (!authorization) return refuse(403, 'AccessDenied', 'Access Denied');
  const parts = AUTHORIZATION.exec(authorization);
  if (!parts) return refuse(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed.');
  const [accessKeyId, day, scopeRegion, service, terminal, ...extra] = parts[1]!.split('/');
  const signedHeaders = parts[2]!.split(';');
  const date = headerValue(request.headers, 'x-amz-date') ?? '';
  const payloadHash = headerValue(request.headers, 'x-amz-content-sha256');
  if (!accessKeyId || extra.length > 0 || terminal !== 'aws4_request' || service !== 's3')
    return refuse(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed.');
  if (scopeRegion !== region)
    return refuse(
      400,
      'AuthorizationHeaderMalformed',
      `The authorization header is malformed; the region '${scopeRegion}' is wrong; expecting '${region}'`,
    );
  const secret = secretOf(accessKeyId);
  if (secret === undefined)
    return refuse(
      403,
      'InvalidAccessKeyId',
      'The AWS Access Key Id you provided does not exist in our records.',
    );
  const time = amzDate(date);
  if (Number.isNaN(time) || date.slice(0, 8) !== day)
    return refuse(403, 'AccessDenied', 'AWS authentication requires a valid Date or x-amz-date header');
  if (Math.abs(now.getTime() - time) > MAX_SKEW_MS)
    return refuse(
      403,
      'RequestTimeTooSkewed',
      'The difference between the request time and the current time is too large.',
    );
  if (!payloadHash || !signedHeaders.includes('host') || !signedHeaders.includes('x-amz-content-sha256'))
    return refuse(400, 'InvalidRequest', 'Missing required header for this request: x-amz-content-sha256');
  const scope = `${day}/${region}/s3/aws4_request`;
  const stringToSign = [
    ALGORITHM,
    date,
    scope,
    sha256(canonicalRequest(request, signedHeaders, payloadHash)),
  ].join('\n');
  const expected = createHmac('sha256', signingKey(secret, day!, region, 's3'))
    .update(stringToSign)
    .digest();
  if (!timingSafeEqual(expected, Buffer.from(parts[3]!, 'hex')))
    return refuse(
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    );
  return { ok: true, accessKeyId, payloadHash };
}
