import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { OAuthDouble } from './oauth-double.ts';

/**
 * A local stand-in for Google's OAuth 2.0 endpoints and the Drive API v3, on 127.0.0.1, speaking their documented wire
 * protocols:
 *
 * - `/o/oauth2/v2/auth` answers the consent at once for one account (302 to the redirect URI with `code` and `state`,
 *   or `error=access_denied` while `denyConsent` is set), and insists on PKCE S256, `access_type=offline`,
 *   `prompt=consent` and the read-only Drive scope; `/token` redeems a code (client_secret_post, the redirect URI, the
 *   PKCE verifier; a code once, the only answer with a `refresh_token`) and refresh tokens (which Google does not
 *   rotate), errors as `{ error, error_description }`.
 * - `/drive/v3/files/{id}` (`root` the My Drive's root, a shared drive's id its root), `files?q=` with `'<id>' in
 *   parents`, `name = '…'`, `mimeType = '…'` and `trashed = false`, paged by `nextPageToken`, a shared drive's only
 *   with `corpora=drive&driveId&includeItemsFromAllDrives=true`; `changes/startPageToken` and `changes?pageToken=`,
 *   paged by `nextPageToken` and closed by `newStartPageToken` (a permanently deleted file `removed` without a
 *   resource, a trashed one with `trashed: true`); `files/{id}?alt=media` (refused for Google Docs, 403
 *   `fileNotDownloadable`), `files/{id}/export?mimeType=`, `drives/{id}` and `about`. Errors as
 *   `{ error: { code, message, errors: [{ domain, reason, message }] } }`.
 * - An expired access token is answered 401 `authError`; `throttleOnce` answers the next Drive request 429
 *   `rateLimitExceeded` with Retry-After, or 403 `userRateLimitExceeded` (which has none).
 *
 * Paths starting `@shared/` are in the shared drive `sharedDriveId`, others in the account's My Drive. Tests change
 * the drives with `put`, `putDoc`, `move`, `trash` and `remove` (each a new change), and see what the product did with
 * `downloads`, `exports`, `tokenGrants` and `throttled`.
 */

interface Item {
  id: string;
  name: string;
  parentId: string | null;
  /** The shared drive it is in, or null for My Drive. */
  driveId: string | null;
  mimeType: string;
  content: Buffer;
  /** Grows with any change, as Drive's `version`. */
  version: number;
  /** The change id that last touched it. */
  changed: number;
  trashed: boolean;
  deleted: boolean;
}

const FOLDER = 'application/vnd.google-apps.folder';
const DOCUMENT = 'application/vnd.google-apps.document';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const SCOPE = 'https://www.googleapis.com/auth/drive.readonly';
const PAGE_SIZE = 2;
const newId = () => `1${randomBytes(12).toString('base64url')}`;
const b64url = (b: Buffer) => b.toString('base64url');

export class TestGoogleDrive extends OAuthDouble {
  readonly clientId = `${randomBytes(6).toString('hex')}.apps.googleusercontent.com`;
  readonly clientSecret = `GOCSPX-${randomBytes(10).toString('hex')}`;
  readonly account = 'anna@handwerk.example';
  readonly sharedDriveId = `0A${randomBytes(8).toString('hex')}Uk9PVA`;
  private readonly items = new Map<string, Item>();
  private readonly rootId = newId();
  private seq = 1;
  private readonly codes = new Map<string, { redirectUri: string; challenge: string; used: boolean }>();
  private readonly refreshTokens = new Set<string>();
  private readonly accessTokens = new Map<string, { expired: boolean }>();
  private readonly downloadCounts = new Map<string, number>();
  private readonly exportCounts = new Map<string, number>();
  private throttleNext: 429 | 403 | null = null;
  /** While set, the consent page answers `error=access_denied` (the user said no). */
  denyConsent = false;
  /** Token requests by grant type. */
  readonly tokenGrants: string[] = [];
  /** Throttled answers sent. */
  throttled = 0;

  private constructor() {
    super();
    for (const [id, name, driveId] of [
      [this.rootId, 'My Drive', null],
      [this.sharedDriveId, 'Werkstatt', this.sharedDriveId],
    ] as const)
      this.items.set(id, {
        id,
        name,
        parentId: null,
        driveId,
        mimeType: FOLDER,
        content: Buffer.alloc(0),
        version: 1,
        changed: this.seq,
        trashed: false,
        deleted: false,
      });
  }

  static start(): Promise<TestGoogleDrive> {
    return new TestGoogleDrive().listen();
  }

  /** What the operator enters for this client (the body of PUT /admin/google-app). */
  get app() {
    return {
      clientId: this.clientId,
      clientSecret: this.clientSecret,
      authUrl: `${this.url}/o/oauth2/v2/auth`,
      tokenUrl: `${this.url}/token`,
      driveUrl: `${this.url}/drive/v3`,
    };
  }

  // --- the drives, as tests change them ---

  private live(): Item[] {
    return [...this.items.values()].filter((i) => !i.deleted && !i.trashed);
  }

  /** The drive's root a test path names, and the path below it. */
  private split(path: string): { root: Item; rest: string[] } {
    const shared = path.startsWith('@shared/');
    const rest = (shared ? path.slice('@shared/'.length) : path).split('/').filter(Boolean);
    return { root: this.items.get(shared ? this.sharedDriveId : this.rootId)!, rest };
  }

  private byPath(path: string): Item | undefined {
    const { root, rest } = this.split(path);
    let at: Item | undefined = root;
    for (const name of rest) {
      const parent: Item | undefined = at;
      at = parent && this.live().find((i) => i.parentId === parent.id && i.name === name);
    }
    return at;
  }

  private touch(item: Item): void {
    item.version++;
    item.changed = ++this.seq;
  }

  private add(name: string, parent: Item, mimeType: string, content: Buffer): Item {
    const item: Item = {
      id: newId(),
      name,
      parentId: parent.id,
      driveId: parent.driveId,
      mimeType,
      content,
      version: 0,
      changed: 0,
      trashed: false,
      deleted: false,
    };
    this.items.set(item.id, item);
    this.touch(item);
    return item;
  }

  private folderAt(path: string): Item {
    const { root, rest } = this.split(path);
    let parent = root;
    for (const name of rest)
      parent =
        this.live().find((i) => i.parentId === parent.id && i.name === name && i.mimeType === FOLDER) ??
        this.add(name, parent, FOLDER, Buffer.alloc(0));
    return parent;
  }

  private write(path: string, mimeType: string, content: Buffer): void {
    const existing = this.byPath(path);
    if (existing) {
      existing.content = content;
      this.touch(existing);
      return;
    }
    const parts = path.split('/');
    const name = parts.pop()!;
    this.add(name, this.folderAt(parts.join('/')), mimeType, content);
  }

  /** Writes a file (its folders made as needed): a new file, or new content of the one at that path. */
  put(path: string, text: string): void {
    this.write(path, 'text/plain', Buffer.from(text));
  }

  /** Writes a Google Doc; `docx` is what exporting it as Word gives. */
  putDoc(path: string, docx: Buffer): void {
    this.write(path, DOCUMENT, docx);
  }

  /** Renames or moves a file or folder: the same id; only the item itself shows in the changes. */
  move(from: string, to: string): void {
    const item = this.byPath(from);
    if (!item) throw new Error(`nothing at ${from}`);
    const parts = to.split('/');
    item.name = parts.pop()!;
    item.parentId = this.folderAt(parts.join('/')).id;
    this.touch(item);
  }

  private withBelow(path: string): Item[] {
    const item = this.byPath(path);
    if (!item) throw new Error(`nothing at ${path}`);
    const below = (id: string): Item[] =>
      this.live()
        .filter((i) => i.parentId === id)
        .flatMap((i) => [i, ...below(i.id)]);
    return [item, ...below(item.id)];
  }

  /** Moves a file or folder to the trash (a change with `trashed: true`). */
  trash(path: string): void {
    for (const i of this.withBelow(path)) {
      i.trashed = true;
      this.touch(i);
    }
  }

  /** Deletes a file or folder for good (a change `removed: true` without the file). */
  remove(path: string): void {
    for (const i of this.withBelow(path)) {
      i.deleted = true;
      this.touch(i);
    }
  }

  /** How often the file now at `path` was downloaded (alt=media). */
  downloads(path: string): number {
    const item = this.byPath(path);
    return item ? (this.downloadCounts.get(item.id) ?? 0) : 0;
  }

  /** How often the Google Doc now at `path` was exported. */
  exports(path: string): number {
    const item = this.byPath(path);
    return item ? (this.exportCounts.get(item.id) ?? 0) : 0;
  }

  /** The id of the folder (or file) at `path`, as its address in Drive shows it. */
  idOf(path: string): string {
    const item = this.byPath(path);
    if (!item) throw new Error(`nothing at ${path}`);
    return item.id;
  }

  /** Every access token handed out so far expires (the next Drive request with one is answered 401). */
  expireAccessTokens(): void {
    for (const token of this.accessTokens.values()) token.expired = true;
  }

  /** Every refresh token is withdrawn (the access was removed): a refresh is answered `invalid_grant`. */
  revokeConsent(): void {
    this.refreshTokens.clear();
    this.expireAccessTokens();
  }

  /** The next Drive request is throttled: 429 with Retry-After: 1, or 403 `userRateLimitExceeded`. */
  throttleOnce(status: 429 | 403 = 429): void {
    this.throttleNext = status;
  }

  // --- the wire ---

  private driveError(res: ServerResponse, status: number, reason: string, message: string, headers = {}) {
    const domain =
      reason.endsWith('RateLimitExceeded') || reason === 'rateLimitExceeded' ? 'usageLimits' : 'global';
    this.json(
      res,
      status,
      { error: { code: status, message, errors: [{ domain, reason, message }] } },
      headers,
    );
  }

  private tokenError(res: ServerResponse, status: number, error: string, description: string) {
    this.json(res, status, { error, error_description: description });
  }

  private resource(item: Item) {
    return {
      kind: 'drive#file',
      id: item.id,
      name: item.name,
      mimeType: item.mimeType,
      ...(item.parentId ? { parents: [item.parentId] } : {}),
      ...(item.driveId ? { driveId: item.driveId } : {}),
      trashed: item.trashed,
      version: String(item.version),
      modifiedTime: new Date(item.changed * 1000).toISOString(),
      ...(item.mimeType === FOLDER || item.mimeType === DOCUMENT
        ? {}
        : {
            size: String(item.content.length),
            md5Checksum: createHash('md5').update(item.content).digest('hex'),
          }),
    };
  }

  protected async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', this.url);
    if (url.pathname === '/o/oauth2/v2/auth' && req.method === 'GET') return this.authorize(url, res);
    if (url.pathname === '/token' && req.method === 'POST') return this.token(await this.form(req), res);
    if (!url.pathname.startsWith('/drive/v3/')) return this.driveError(res, 404, 'notFound', 'Not Found');
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const access = token ? this.accessTokens.get(token) : undefined;
    if (!access || access.expired)
      return this.driveError(
        res,
        401,
        'authError',
        'Request had invalid authentication credentials. Expected OAuth 2 access token.',
        { 'www-authenticate': 'Bearer realm="https://accounts.google.com/"' },
      );
    if (this.throttleNext) {
      const status = this.throttleNext;
      this.throttleNext = null;
      this.throttled++;
      return status === 429
        ? this.driveError(res, 429, 'rateLimitExceeded', 'Rate Limit Exceeded', { 'retry-after': '1' })
        : this.driveError(res, 403, 'userRateLimitExceeded', 'User Rate Limit Exceeded');
    }
    return this.drive(decodeURIComponent(url.pathname.slice('/drive/v3'.length)), url.searchParams, res);
  }

  private authorize(url: URL, res: ServerResponse) {
    const q = url.searchParams;
    const redirect = new URL(q.get('redirect_uri') ?? '');
    if (q.get('client_id') !== this.clientId || q.get('response_type') !== 'code')
      return this.tokenError(res, 400, 'invalid_client', 'The OAuth client was not found.');
    if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge'))
      return this.tokenError(res, 400, 'invalid_request', 'code_challenge_method must be S256.');
    if (q.get('access_type') !== 'offline' || q.get('prompt') !== 'consent' || q.get('scope') !== SCOPE)
      return this.tokenError(res, 400, 'invalid_request', 'offline access to drive.readonly expected');
    if (this.denyConsent) redirect.searchParams.set('error', 'access_denied');
    else {
      const code = `4/0${randomBytes(16).toString('hex')}`;
      this.codes.set(code, {
        redirectUri: redirect.toString(),
        challenge: q.get('code_challenge')!,
        used: false,
      });
      redirect.searchParams.set('code', code);
      redirect.searchParams.set('scope', SCOPE);
    }
    redirect.searchParams.set('state', q.get('state') ?? '');
    res.writeHead(302, { location: redirect.toString() }).end();
  }

  private issue(res: ServerResponse, withRefresh: boolean): void {
    const access = `ya29.${randomBytes(16).toString('hex')}`;
    this.accessTokens.set(access, { expired: false });
    const refresh = `1//0${randomBytes(16).toString('hex')}`;
    if (withRefresh) this.refreshTokens.add(refresh);
    this.json(res, 200, {
      access_token: access,
      expires_in: 3599,
      scope: SCOPE,
      token_type: 'Bearer',
      ...(withRefresh ? { refresh_token: refresh } : {}),
    });
  }

  private token(form: URLSearchParams, res: ServerResponse) {
    if (form.get('client_id') !== this.clientId || form.get('client_secret') !== this.clientSecret)
      return this.tokenError(res, 401, 'invalid_client', 'Unauthorized');
    const grant = form.get('grant_type') ?? '';
    this.tokenGrants.push(grant);
    if (grant === 'authorization_code') {
      const code = this.codes.get(form.get('code') ?? '');
      if (!code || code.used) return this.tokenError(res, 400, 'invalid_grant', 'Malformed auth code.');
      code.used = true;
      if (code.redirectUri !== form.get('redirect_uri'))
        return this.tokenError(res, 400, 'redirect_uri_mismatch', 'Bad Request');
      const verifier = form.get('code_verifier') ?? '';
      if (b64url(createHash('sha256').update(verifier).digest()) !== code.challenge)
        return this.tokenError(res, 400, 'invalid_grant', 'Invalid code verifier.');
      return this.issue(res, true);
    }
    if (grant === 'refresh_token') {
      if (!this.refreshTokens.has(form.get('refresh_token') ?? ''))
        return this.tokenError(res, 400, 'invalid_grant', 'Token has been expired or revoked.');
      return this.issue(res, false);
    }
    return this.tokenError(res, 400, 'unsupported_grant_type', 'Invalid grant_type.');
  }

  /** A file by id as the API sees it: `root` is My Drive's root; trashed files are still found, deleted not. */
  private file(id: string): Item | undefined {
    const item = this.items.get(id === 'root' ? this.rootId : id);
    return item && !item.deleted ? item : undefined;
  }

  private drive(path: string, q: URLSearchParams, res: ServerResponse) {
    if (path === '/about')
      return this.json(res, 200, {
        user: { kind: 'drive#user', displayName: 'Anna', emailAddress: this.account },
      });
    const shared = /^\/drives\/([^/]+)$/.exec(path);
    if (shared) {
      if (shared[1] !== this.sharedDriveId)
        return this.driveError(res, 404, 'notFound', `Shared drive not found: ${shared[1]}`);
      return this.json(res, 200, { kind: 'drive#drive', id: this.sharedDriveId, name: 'Werkstatt' });
    }
    if (path === '/files') return this.list(q, res);
    if (path === '/changes/startPageToken')
      return this.json(res, 200, { kind: 'drive#startPageToken', startPageToken: String(this.seq + 1) });
    if (path === '/changes') return this.changes(q, res);
    const file = /^\/files\/([^/]+)(\/export)?$/.exec(path);
    const item = file ? this.file(file[1]!) : undefined;
    if (!file) return this.driveError(res, 400, 'badRequest', `Unsupported: ${path}`);
    // A shared drive's files are found only by a caller that says it supports shared drives (export has no such say).
    if (!item || (!file[2] && item.driveId && q.get('supportsAllDrives') !== 'true'))
      return this.driveError(res, 404, 'notFound', `File not found: ${file[1]}.`);
    if (file[2]) {
      if (item.mimeType !== DOCUMENT || q.get('mimeType') !== DOCX)
        return this.driveError(res, 400, 'badRequest', 'The requested conversion is not supported.');
      this.exportCounts.set(item.id, (this.exportCounts.get(item.id) ?? 0) + 1);
      res.writeHead(200, { 'content-type': DOCX }).end(item.content);
      return;
    }
    if (q.get('alt') === 'media') {
      if (item.mimeType === FOLDER || item.mimeType === DOCUMENT)
        return this.driveError(
          res,
          403,
          'fileNotDownloadable',
          'Only files with binary content can be downloaded. Use Export with Docs Editors files.',
        );
      this.downloadCounts.set(item.id, (this.downloadCounts.get(item.id) ?? 0) + 1);
      res.writeHead(200, { 'content-type': item.mimeType }).end(item.content);
      return;
    }
    return this.json(res, 200, this.resource(item));
  }

  /** The drive a listing or changes request is limited to (null: My Drive), or an error already answered. */
  private corpus(q: URLSearchParams, res: ServerResponse): string | null | false {
    const driveId = q.get('driveId');
    if (!driveId) return null;
    if (q.get('includeItemsFromAllDrives') !== 'true' || q.get('supportsAllDrives') !== 'true') {
      this.driveError(res, 403, 'teamDriveIdRequiresTeamDriveSupport', 'driveId needs shared drive support.');
      return false;
    }
    if (driveId !== this.sharedDriveId) {
      this.driveError(res, 404, 'notFound', `Shared drive not found: ${driveId}`);
      return false;
    }
    return driveId;
  }

  /** files.list with the query terms the connector uses, paged by an opaque `nextPageToken`. */
  private list(q: URLSearchParams, res: ServerResponse) {
    const driveId = this.corpus(q, res);
    if (driveId === false) return;
    if (driveId && q.get('corpora') !== 'drive')
      return this.driveError(res, 400, 'invalid', 'corpora=drive is needed with driveId.');
    const terms = (q.get('q') ?? '').split(' and ').map((t) => t.trim());
    const unquote = (s: string) => s.slice(1, -1).replace(/\\'/g, "'").replace(/\\\\/g, '\\');
    let found = [...this.items.values()].filter((i) => !i.deleted && i.parentId && i.driveId === driveId);
    for (const term of terms) {
      const parent = /^('(?:[^'\\]|\\.)*') in parents$/.exec(term);
      const equal = /^(name|mimeType) = ('(?:[^'\\]|\\.)*')$/.exec(term);
      if (parent) {
        const id = unquote(parent[1]!);
        const resolved = id === 'root' ? this.rootId : id;
        found = found.filter((i) => i.parentId === resolved);
      } else if (term === 'trashed = false') found = found.filter((i) => !i.trashed);
      else if (equal) found = found.filter((i) => i[equal[1] as 'name' | 'mimeType'] === unquote(equal[2]!));
      else return this.driveError(res, 400, 'invalid', `Invalid Value: ${term}`);
    }
    const offset = Number(q.get('pageToken') ? Buffer.from(q.get('pageToken')!, 'base64url').toString() : 0);
    const page = found.slice(offset, offset + PAGE_SIZE);
    const more = offset + PAGE_SIZE < found.length;
    this.json(res, 200, {
      kind: 'drive#fileList',
      incompleteSearch: false,
      files: page.map((i) => this.resource(i)),
      ...(more ? { nextPageToken: Buffer.from(String(offset + PAGE_SIZE)).toString('base64url') } : {}),
    });
  }

  /**
   * changes.list: the files changed at or after change `pageToken` (each once, as it is now), PAGE_SIZE at a time;
   * the last page carries `newStartPageToken` for the next sync.
   */
  private changes(q: URLSearchParams, res: ServerResponse) {
    const driveId = this.corpus(q, res);
    if (driveId === false) return;
    const since = Number(q.get('pageToken'));
    if (!Number.isInteger(since) || since < 1)
      return this.driveError(res, 400, 'invalid', 'Invalid Value', {});
    const changed = [...this.items.values()]
      .filter((i) => i.changed >= since && i.parentId && (driveId ? i.driveId === driveId : true))
      .sort((a, b) => a.changed - b.changed);
    const page = changed.slice(0, PAGE_SIZE);
    const more = changed.length > PAGE_SIZE;
    this.json(res, 200, {
      kind: 'drive#changeList',
      changes: page.map((i) => ({
        kind: 'drive#change',
        changeType: 'file',
        time: new Date(i.changed * 1000).toISOString(),
        fileId: i.id,
        removed: i.deleted,
        ...(i.deleted ? {} : { file: this.resource(i) }),
        ...(i.driveId ? { driveId: i.driveId } : {}),
      })),
      ...(more
        ? { nextPageToken: String(page[page.length - 1]!.changed + 1) }
        : { newStartPageToken: String(this.seq + 1) }),
    });
  }
}
