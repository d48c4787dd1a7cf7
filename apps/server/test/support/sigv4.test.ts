import { describe, expect, it } from 'vitest';
import { canonicalRequest, type SigV4Request, verifySigV4 } from './sigv4.ts';

// The worked example of Amazon S3's documentation ("Signature Calculations for the Authorization Header:
// Transferring Payload in a Single Chunk", GET Object): the first 10 bytes of test.txt from examplebucket.
const EMPTY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const SIGNATURE = 'f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41';
const example = (overrides: Record<string, string> = {}): SigV4Request => ({
  method: 'GET',
  url: '/test.txt',
  headers: {
    host: 'examplebucket.s3.amazonaws.com',
    range: 'bytes=0-9',
    'x-amz-content-sha256': EMPTY,
    'x-amz-date': '20130524T000000Z',
    authorization: `AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=${SIGNATURE}`,
    ...overrides,
  },
});
const then = new Date(Date.UTC(2013, 4, 24, 0, 5));
const secretOf = (id: string) => (id === 'AKIAIOSFODNN7EXAMPLE' ? SECRET : undefined);

describe('SigV4 verification of the S3 test double', () => {
  it("builds the documentation's canonical request and accepts its signature", () => {
    expect(canonicalRequest(example(), ['host', 'range', 'x-amz-content-sha256', 'x-amz-date'], EMPTY)).toBe(
      [
        'GET',
        '/test.txt',
        '',
        'host:examplebucket.s3.amazonaws.com',
        'range:bytes=0-9',
        `x-amz-content-sha256:${EMPTY}`,
        'x-amz-date:20130524T000000Z',
        '',
        'host;range;x-amz-content-sha256;x-amz-date',
        EMPTY,
      ].join('\n'),
    );
    expect(verifySigV4(example(), secretOf, 'us-east-1', then)).toEqual({
      ok: true,
      accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      payloadHash: EMPTY,
    });
  });

  it('sorts and encodes query parameters, and gives a bare name the empty value', () => {
    const canonical = canonicalRequest(
      { method: 'POST', url: '/b/a%20b?uploads&x-id=Create%2AUpload', headers: {} },
      [],
      EMPTY,
    );
    expect(canonical.split('\n').slice(0, 3)).toEqual(['POST', '/b/a%20b', 'uploads=&x-id=Create%2AUpload']);
  });

  it.each([
    ['a wrong secret', { secret: 'wrong' }, 403, 'SignatureDoesNotMatch'],
    ['a changed signed header', { headers: { range: 'bytes=0-99' } }, 403, 'SignatureDoesNotMatch'],
    [
      'an unknown access key',
      {
        headers: {
          authorization: example().headers.authorization!.replace('AKIAIOSFODNN7EXAMPLE', 'AKIAOTHER'),
        },
      },
      403,
      'InvalidAccessKeyId',
    ],
    ['another region', { region: 'eu-central-1' }, 400, 'AuthorizationHeaderMalformed'],
    ['a request of yesterday', { now: new Date(Date.UTC(2013, 4, 23)) }, 403, 'RequestTimeTooSkewed'],
    ['no signature at all', { headers: { authorization: '' } }, 403, 'AccessDenied'],
  ] as const)('refuses %s', (_name, change, status, code) => {
    const c = change as { secret?: string; headers?: Record<string, string>; region?: string; now?: Date };
    const result = verifySigV4(
      example(c.headers),
      (id) => (c.secret && id === 'AKIAIOSFODNN7EXAMPLE' ? c.secret : secretOf(id)),
      c.region ?? 'us-east-1',
      c.now ?? then,
    );
    expect(result).toMatchObject({ ok: false, status, code });
  });
});
