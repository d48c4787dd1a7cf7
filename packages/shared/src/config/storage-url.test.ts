import { describe, expect, it } from 'vitest';
import { parseStorageUrl } from './storage-url.ts';

const location = (value: string) => {
  const parsed = parseStorageUrl(value);
  if (!parsed.ok) throw new Error(`expected ${value} to be accepted: ${parsed.error}`);
  return parsed.location;
};

const error = (value: string) => {
  const parsed = parseStorageUrl(value);
  if (parsed.ok) throw new Error(`expected ${value} to be refused`);
  return parsed.error;
};

describe('parseStorageUrl', () => {
  it('reads bucket, prefix, endpoint, region and path style', () => {
    expect(
      location(
        's3://werkwissen-files/prod/eu?endpoint=http://minio:9000/&region=eu-central-1&forcePathStyle=false',
      ),
    ).toEqual({
      bucket: 'werkwissen-files',
      prefix: 'prod/eu/',
      endpoint: 'http://minio:9000',
      region: 'eu-central-1',
      forcePathStyle: false,
    });
  });

  it('defaults to us-east-1, and to path style only with an own endpoint', () => {
    expect(location('s3://files')).toEqual({
      bucket: 'files',
      prefix: '',
      endpoint: undefined,
      region: 'us-east-1',
      forcePathStyle: false,
    });
    expect(location('s3://files/?endpoint=https://s3.example.com').forcePathStyle).toBe(true);
    expect(location('s3://files?endpoint=https://s3.example.com&forcePathStyle=false').forcePathStyle).toBe(
      false,
    );
  });

  it.each([
    ['http://files', /must start with s3:\/\//],
    ['files', /must be a URL/],
    ['s3://key:secret@files', /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/],
    ['s3://minio:9000/files', /put the server in \?endpoint=/],
    ['s3://Files_2026', /must name a bucket/],
    ['s3://ab', /must name a bucket/],
    ['s3://files/a/../b', /prefix/],
    ['s3://files/a b', /prefix/],
    ['s3://files?endpoint=minio:9000', /endpoint/],
    ['s3://files?endpoint=http://minio:9000/path', /endpoint/],
    ['s3://files?region=EU Central', /region/],
    ['s3://files?forcePathStyle=yes', /forcePathStyle/],
    ['s3://files?pathStyle=true', /unknown option "pathStyle"/],
  ])('refuses %s', (value, message) => {
    expect(error(value)).toMatch(message);
  });
});
