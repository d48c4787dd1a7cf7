import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { OAuthDouble } from './oauth-double.ts';

/**
 * A local stand-in for Microsoft's identity platform (v2.0) and the Microsoft Graph drive API, on 127.0.0.1, speaking
 * their documented wire protocols:
 *
 * - `/{tenant}/oauth2/v2.0/authorize` answers the consent at once for one account (302 to the redirect URI with `code`
 *   and `state`, or `error=access_denied` while `denyConsent` is set); `/{tenant}/oauth2/v2.0/token` redeems a code
 *   (client_secret_post, the redirect URI, the PKCE S256 verifier; a code once) and refresh tokens, which rotate (the
 *   old one is refused afterwards), errors as `{ error, error_description, error_codes }` with 400.
 * - `/v1.0/me`, `/v1.0/me/drive`, `/v1.0/drives/{id}`, `/root`, `/root:/{path}`, and the delta query
 *   `/v1.0/drives/{id}/root/delta`: driveItems (`file` with hashes, `folder`, `root`, `deleted` without a name, as
 *   OneDrive for Business sends them; `parentReference` without a path), paged by `@odata.nextLink` and closed by an
 *   `@odata.deltaLink` whose token returns only what changed since. `/items/{id}/content` answers 302 to a
 *   pre-authenticated download address, as Graph does.
 * - An expired access token is answered 401 `InvalidAuthenticationToken`; `throttleOnce` answers the next Graph
 *   request 429 with `Retry-After`; after `expireDeltaLinks` an old delta link is answered 410 with a `Location` that
 *   starts a fresh enumeration.
 *
 * Tests change the drive with `put`, `move` and `remove` (each a new change in the feed), and see what the product did
 * with `downloads`, `tokenGrants` and `throttled`.
 */

interface Item {
  id: string;
  name: string;
  parentId: string | null;
  folder: boolean;
  content: Buffer;
  /** Changes with the content. */
  contentVersion: number;
  /** Changes with anything. */
  version: number;
  /** The change (sequence number) that last touched it. */
  changed: number;
  deleted: boolean;
}

const PAGE_SIZE = 3;
const newId = () => randomBytes(9).toString('hex').toUpperCase();
const b64url = (b: Buffer) => b.toString('base64url');

export class TestGraph extends OAuthDouble {
  readonly clientId = 'a1b2c3d4-0000-4000-8000-0000000000aa';
  readonly clientSecret = `secret-${randomBytes(8).toString('hex')}`;
  readonly account = 'anna@contoso.example';
  readonly driveId = `b!${newId()}`;
  private readonly items = new Map<string, Item>();
  private readonly rootId = newId();
  private seq = 1;
  private readonly codes = new Map<string, { redirectUri: string; challenge: string; used: boolean }>();
  private readonly refreshTokens = new Set<string>();
  private readonly accessTokens = new Map<string, { expired: boolean }>();
  private readonly downloadCounts = new Map<string, number>();
  private throttleNext = false;
  /** Delta tokens below this are no longer honoured (410 Gone with a Location to start afresh). */
  private oldestToken = 0;
  /** While set, the consent page answers `error=access_denied` (the user said no). */
  denyConsent = false;
  /** Token requests by grant type. */
  readonly tokenGrants: string[] = [];
  /** 429 answers sent. */
  throttled = 0;
  /** 410 answers sent (expired delta links). */
  resyncs = 0;

  private constructor() {
    super();
    this.items.set(this.rootId, {
      id: this.rootId,
      name: 'root',
      parentId: null,
      folder: true,
      content: Buffer.alloc(0),
      contentVersion: 0,
      version: 0,
      changed: this.seq,
      deleted: false,
    });
  }

  static start(): Promise<TestGraph> {
    return new TestGraph().listen();
  }

  /** What the operator enters for this app (the body of PUT /admin/microsoft-app). */
  get app() {
    return {
      clientId: this.clientId,
      clientSecret: this.clientSecret,
      tenant: 'organizations',
      loginUrl: this.url,
      graphUrl: `${this.url}/v1.0`,
    };
  }

  // --- the drive, as tests change it ---

  private live(): Item[] {
    return [...this.items.values()].filter((i) => !i.deleted);
  }

  private pathOf(item: Item): string {
    const parts: string[] = [];
    for (let i: Item | undefined = item; i?.parentId; i = this.items.get(i.parentId)) parts.unshift(i.name);
    return parts.join('/');
  }

  private byPath(path: string): Item | undefined {
    const clean = path.replace(/^\/+|\/+$/g, '');
    if (!clean) return this.items.get(this.rootId);
    return this.live().find((i) => this.pathOf(i) === clean);
  }

  private touch(item: Item, content: boolean): void {
    item.version++;
    if (content) item.contentVersion++;
    item.changed = ++this.seq;
  }

  private folderAt(path: string): Item {
    let parent = this.items.get(this.rootId)!;
    for (const name of path.split('/').filter(Boolean)) {
      let next = this.live().find((i) => i.parentId === parent.id && i.name === name);
      if (!next) {
        next = {
          id: newId(),
          name,
          parentId: parent.id,
          folder: true,
          content: Buffer.alloc(0),
          contentVersion: 0,
          version: 0,
          changed: 0,
          deleted: false,
        };
        this.items.set(next.id, next);
        this.touch(next, false);
      }
      parent = next;
    }
    return parent;
  }

  /** Writes a file (its folders made as needed): a new item, or new content of the one at that path. */
  put(path: string, text: string): void {
    const existing = this.byPath(path);
    if (existing) {
      existing.content = Buffer.from(text);
      this.touch(existing, true);
      return;
    }
    const parts = path.split('/');
    const name = parts.pop()!;
    const item: Item = {
      id: newId(),
      name,
      parentId: this.folderAt(parts.join('/')).id,
      folder: false,
      content: Buffer.from(text),
      contentVersion: 0,
      version: 0,
      changed: 0,
      deleted: false,
    };
    this.items.set(item.id, item);
    this.touch(item, true);
  }

  /** Renames or moves an item (file or folder): the same id; only the item itself shows in the feed. */
  move(from: string, to: string): void {
    const item = this.byPath(from);
    if (!item) throw new Error(`nothing at ${from}`);
    const parts = to.split('/');
    item.name = parts.pop()!;
    item.parentId = this.folderAt(parts.join('/')).id;
    this.touch(item, false);
  }

  /** Deletes an item and everything below it. */
  remove(path: string): void {
    const item = this.byPath(path);
    if (!item) throw new Error(`nothing at ${path}`);
    const below = (id: string): Item[] =>
      this.live()
        .filter((i) => i.parentId === id)
        .flatMap((i) => [i, ...below(i.id)]);
    for (const i of [item, ...below(item.id)]) {
      i.deleted = true;
      this.touch(i, false);
    }
  }

  /** How often the file now at `path` was downloaded. */
  downloads(path: string): number {
    const item = this.byPath(path);
    return item ? (this.downloadCounts.get(item.id) ?? 0) : 0;
  }

  /** Every access token handed out so far expires (the next Graph request with one is answered 401). */
  expireAccessTokens(): void {
    for (const token of this.accessTokens.values()) token.expired = true;
  }

  /** Every refresh token is withdrawn (the consent was revoked): a refresh is answered `invalid_grant`. */
  revokeConsent(): void {
    this.refreshTokens.clear();
    this.expireAccessTokens();
  }

  /** Every delta link handed out so far expires: using one is answered 410 `resyncChangesApplyDifferences`. */
  expireDeltaLinks(): void {
    this.oldestToken = this.seq + 1;
  }

  /** The next Graph request is answered 429 with Retry-After: 1. */
  throttleOnce(): void {
    this.throttleNext = true;
  }

  // --- the wire ---

  private graphError(res: ServerResponse, status: number, code: string, message: string): void {
    this.json(res, status, { error: { code, message, innerError: { date: new Date().toISOString() } } });
  }

  private tokenError(res: ServerResponse, error: string, description: string): void {
    this.json(res, 400, {
      error,
      error_description: description,
      error_codes: [error === 'invalid_grant' ? 70008 : 7000215],
      timestamp: new Date().toISOString(),
    });
  }

  private driveItem(item: Item) {
    if (item.deleted)
      return {
        id: item.id,
        deleted: { state: 'deleted' },
        parentReference: { driveId: this.driveId, driveType: 'business', id: item.parentId },
      };
    const base = {
      id: item.id,
      name: item.name,
      eTag: `"{${item.id}},${item.version}"`,
      cTag: `"c:{${item.id}},${item.contentVersion}"`,
      size: item.content.length,
      lastModifiedDateTime: new Date().toISOString(),
      ...(item.parentId
        ? { parentReference: { driveId: this.driveId, driveType: 'business', id: item.parentId } }
        : {}),
    };
    if (item.id === this.rootId) return { ...base, root: {}, folder: { childCount: 0 } };
    if (item.folder)
      return { ...base, folder: { childCount: this.live().filter((i) => i.parentId === item.id).length } };
    return {
      ...base,
      file: {
        mimeType: 'application/octet-stream',
        hashes: { quickXorHash: createHash('sha1').update(item.content).digest('base64') },
      },
    };
  }

  protected async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', this.url);
    const path = decodeURIComponent(url.pathname);
    const oauth = /^\/[^/]+\/oauth2\/v2\.0\/(authorize|token)$/.exec(url.pathname);
    if (oauth?.[1] === 'authorize' && req.method === 'GET') return this.authorize(url, res);
    if (oauth?.[1] === 'token' && req.method === 'POST') return this.token(await this.form(req), res);
    const download = /^\/download\/([A-Z0-9]+)$/.exec(url.pathname);
    if (download && req.method === 'GET') {
      const item = this.items.get(download[1]!);
      if (!item || item.deleted)
        return this.graphError(res, 404, 'itemNotFound', 'The resource could not be found.');
      this.downloadCounts.set(item.id, (this.downloadCounts.get(item.id) ?? 0) + 1);
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(item.content);
      return;
    }
    if (!path.startsWith('/v1.0/')) return this.graphError(res, 404, 'BadRequest', 'Unknown route');

    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const access = token ? this.accessTokens.get(token) : undefined;
    if (!access) return this.graphError(res, 401, 'InvalidAuthenticationToken', 'Access token is empty.');
    if (access.expired)
      return this.graphError(
        res,
        401,
        'InvalidAuthenticationToken',
        'Lifetime validation failed, the token is expired.',
      );
    if (this.throttleNext) {
      this.throttleNext = false;
      this.throttled++;
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end(
        JSON.stringify({ error: { code: 'TooManyRequests', message: 'Please retry after 1 second.' } }),
      );
      return;
    }
    return this.graph(path.slice('/v1.0'.length), url, res);
  }

  private authorize(url: URL, res: ServerResponse) {
    const q = url.searchParams;
    const redirect = new URL(q.get('redirect_uri') ?? '');
    if (q.get('client_id') !== this.clientId || q.get('response_type') !== 'code')
      return this.tokenError(res, 'unauthorized_client', 'AADSTS700016: Application not found.');
    if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge'))
      return this.tokenError(res, 'invalid_request', 'AADSTS9002325: PKCE is required.');
    if (this.denyConsent) {
      redirect.searchParams.set('error', 'access_denied');
      redirect.searchParams.set('error_description', 'AADSTS65004: User declined to consent.');
    } else {
      const code = `code-${randomBytes(16).toString('hex')}`;
      this.codes.set(code, {
        redirectUri: redirect.toString(),
        challenge: q.get('code_challenge')!,
        used: false,
      });
      redirect.searchParams.set('code', code);
    }
    redirect.searchParams.set('state', q.get('state') ?? '');
    res.writeHead(302, { location: redirect.toString() }).end();
  }

  private issue(res: ServerResponse, scope: string): void {
    const access = `at-${randomBytes(16).toString('hex')}`;
    const refresh = `rt-${randomBytes(16).toString('hex')}`;
    this.accessTokens.set(access, { expired: false });
    this.refreshTokens.add(refresh);
    this.json(res, 200, {
      token_type: 'Bearer',
      scope,
      expires_in: 3599,
      ext_expires_in: 3599,
      access_token: access,
      refresh_token: refresh,
    });
  }

  private token(form: URLSearchParams, res: ServerResponse) {
    if (form.get('client_id') !== this.clientId || form.get('client_secret') !== this.clientSecret)
      return this.tokenError(res, 'invalid_client', 'AADSTS7000215: Invalid client secret provided.');
    const grant = form.get('grant_type') ?? '';
    this.tokenGrants.push(grant);
    const scope = 'Files.Read.All Sites.Read.All User.Read';
    if (grant === 'authorization_code') {
      const code = this.codes.get(form.get('code') ?? '');
      if (!code || code.used)
        return this.tokenError(res, 'invalid_grant', 'AADSTS70008: The code has expired or was used.');
      code.used = true;
      if (code.redirectUri !== form.get('redirect_uri'))
        return this.tokenError(res, 'invalid_grant', 'AADSTS50011: The redirect URI does not match.');
      const verifier = form.get('code_verifier') ?? '';
      if (b64url(createHash('sha256').update(verifier).digest()) !== code.challenge)
        return this.tokenError(res, 'invalid_grant', 'AADSTS501481: The code verifier does not match.');
      return this.issue(res, scope);
    }
    if (grant === 'refresh_token') {
      const refresh = form.get('refresh_token') ?? '';
      if (!this.refreshTokens.delete(refresh))
        return this.tokenError(
          res,
          'invalid_grant',
          'AADSTS70043: The refresh token has expired or was revoked.',
        );
      return this.issue(res, scope);
    }
    return this.tokenError(res, 'unsupported_grant_type', 'AADSTS70003: Unsupported grant type.');
  }

  private graph(path: string, url: URL, res: ServerResponse) {
    if (path === '/me') return this.json(res, 200, { userPrincipalName: this.account, displayName: 'Anna' });
    if (path === '/me/drive') return this.json(res, 200, { id: this.driveId, driveType: 'business' });
    const drive = /^\/drives\/([^/]+)(\/.*)?$/.exec(path);
    if (!drive || drive[1] !== this.driveId)
      return this.graphError(res, 404, 'itemNotFound', 'The drive was not found.');
    const rest = drive[2] ?? '';
    if (rest === '') return this.json(res, 200, { id: this.driveId, driveType: 'business' });
    if (rest === '/root') return this.json(res, 200, this.driveItem(this.items.get(this.rootId)!));
    const byPath = /^\/root:\/(.+?):?$/.exec(rest);
    if (byPath) {
      const item = this.byPath(byPath[1]!);
      if (!item) return this.graphError(res, 404, 'itemNotFound', 'The resource could not be found.');
      return this.json(res, 200, this.driveItem(item));
    }
    if (rest === '/root/delta') return this.delta(url, res);
    const content = /^\/items\/([A-Z0-9]+)\/content$/.exec(rest);
    if (content) {
      const item = this.items.get(content[1]!);
      if (!item || item.deleted || item.folder)
        return this.graphError(res, 404, 'itemNotFound', 'The resource could not be found.');
      res.writeHead(302, {
        location: `${this.url}/download/${item.id}?tempauth=${randomBytes(8).toString('hex')}`,
      });
      res.end();
      return;
    }
    return this.graphError(res, 400, 'invalidRequest', `Unsupported: ${rest}`);
  }

  /**
   * The delta query. Without a token: every live item (a fresh enumeration). With `token=<n>`: what changed after
   * change n, deleted items included. Each answer is a snapshot (`upto`), paged by `skip`.
   */
  private delta(url: URL, res: ServerResponse): void {
    const q = url.searchParams;
    const since = Number(q.get('token') ?? '0');
    const upto = Number(q.get('upto') ?? this.seq);
    const skip = Number(q.get('skip') ?? '0');
    const base = `${this.url}/v1.0/drives/${this.driveId}/root/delta`;
    if (since > 0 && since < this.oldestToken) {
      this.resyncs++;
      res.writeHead(410, { 'content-type': 'application/json', location: base });
      res.end(
        JSON.stringify({
          error: { code: 'resyncRequired', innererror: { code: 'resyncChangesApplyDifferences' } },
        }),
      );
      return;
    }
    const changed = [...this.items.values()]
      .filter((i) => (since === 0 ? !i.deleted : i.changed > since) && i.changed <= upto)
      .sort((a, b) => a.changed - b.changed);
    const page = changed.slice(skip, skip + PAGE_SIZE);
    const more = skip + PAGE_SIZE < changed.length;
    this.json(res, 200, {
      '@odata.context': `${this.url}/v1.0/$metadata#Collection(driveItem)`,
      value: page.map((i) => this.driveItem(i)),
      ...(more
        ? { '@odata.nextLink': `${base}?token=${since}&upto=${upto}&skip=${skip + PAGE_SIZE}` }
        : { '@odata.deltaLink': `${base}?token=${upto}` }),
    });
  }
}
