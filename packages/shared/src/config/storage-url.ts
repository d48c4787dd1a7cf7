/**
 * Where uploaded files live when STORAGE_URL is set: an S3-compatible bucket, optionally under a key prefix.
 * `s3://bucket/optional/prefix?endpoint=http://host:9000&region=eu-central-1&forcePathStyle=true`. The credentials
 * never go into the URL (it may be printed or logged); they come from S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY.
 */
export interface S3Location {
  bucket: string;
  /** Empty, or the prefix every key is stored under, ending in `/`. */
  prefix: string;
  /** The S3-compatible server's base URL; without it, Amazon S3 itself. */
  endpoint?: string;
  region: string;
  /** Bucket in the path (`endpoint/bucket/key`) rather than in the host name: what most S3-compatible servers want. */
  forcePathStyle: boolean;
}

export const DEFAULT_S3_REGION = 'us-east-1';

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const REGION = /^[a-z0-9-]{2,32}$/;
const PREFIX_SEGMENT = /^[A-Za-z0-9!_.*'()-]+$/;
const OPTIONS = new Set(['endpoint', 'region', 'forcePathStyle']);

type Parsed = { ok: true; location: S3Location } | { ok: false; error: string };
const fail = (error: string): Parsed => ({ ok: false, error });

/** Reads STORAGE_URL; the error says what to change. */
export function parseStorageUrl(value: string): Parsed {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail('must be a URL like s3://bucket?endpoint=http://host:9000');
  }
  if (url.protocol !== 's3:') return fail('must start with s3:// (without it, files stay in DATA_DIR)');
  if (url.username || url.password)
    return fail('must not hold credentials: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY instead');
  if (url.port)
    return fail('names the bucket after s3://, not a host and port: put the server in ?endpoint=');
  const bucket = url.hostname;
  if (!BUCKET.test(bucket) || bucket.includes('..'))
    return fail('must name a bucket of 3-63 lower-case letters, digits, dots and hyphens after s3://');
  // From the text as written: the URL parser would resolve `a/../b` to `b`.
  const path = value.replace(/^s3:\/\/[^/?#]*/, '').split(/[?#]/)[0] ?? '';
  const segments = path.split('/').filter((s) => s !== '');
  if (segments.some((s) => !PREFIX_SEGMENT.test(s) || s === '.' || s === '..'))
    return fail("has a prefix with characters outside letters, digits and !_.*'()-");
  for (const key of url.searchParams.keys())
    if (!OPTIONS.has(key))
      return fail(`has an unknown option "${key}" (known: endpoint, region, forcePathStyle)`);
  const endpoint = url.searchParams.get('endpoint') ?? undefined;
  if (endpoint !== undefined && !/^https?:\/\/[^/?#]+\/?$/.test(endpoint))
    return fail('has an endpoint that is not an http(s) URL of a server (e.g. endpoint=http://minio:9000)');
  const region = url.searchParams.get('region') ?? DEFAULT_S3_REGION;
  if (!REGION.test(region)) return fail('has a region that is not a region name (e.g. region=eu-central-1)');
  const pathStyle = url.searchParams.get('forcePathStyle');
  if (pathStyle !== null && pathStyle !== 'true' && pathStyle !== 'false')
    return fail('has forcePathStyle other than true or false');
  return {
    ok: true,
    location: {
      bucket,
      prefix: segments.length > 0 ? `${segments.join('/')}/` : '',
      endpoint: endpoint?.replace(/\/$/, ''),
      region,
      // An own endpoint (MinIO, Ceph, Garage, ...) usually serves buckets only in the path; Amazon S3 in the host.
      forcePathStyle: pathStyle === null ? endpoint !== undefined : pathStyle === 'true',
    },
  };
}
