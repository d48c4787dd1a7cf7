import type { SourceItem } from '../../db/schema/index.ts';
import type { SourceApi } from './source-api.ts';
import { SourceError } from './source-client.ts';

/** What the consent asks for: reading every file the account can read (the connector never writes). */
export const GOOGLE_DRIVE_SCOPE = 'https://www.googleapis.com/auth/drive.readonly';

export const FOLDER_MIME = 'application/vnd.google-apps.folder';

/**
 * Google Docs, Sheets and Slides have no content of their own to download: they are exported to the Office format
 * the processing reads (docx, xlsx, pptx). Other Google types (Forms, Drawings, Sites, shortcuts) are not taken.
 */
const EXPORTS: Record<string, { extension: string; mimeType: string }> = {
  'application/vnd.google-apps.document': {
    extension: 'docx',
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  },
  'application/vnd.google-apps.spreadsheet': {
    extension: 'xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  },
  'application/vnd.google-apps.presentation': {
    extension: 'pptx',
    mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  },
};
const EXPORT_BY_EXTENSION = new Map(Object.values(EXPORTS).map((e) => [e.extension, e.mimeType]));

/** A file resource of Drive API v3, only the fields the connector asks for. */
export interface DriveFile {
  id: string;
  name?: string;
  mimeType?: string;
  parents?: string[];
  md5Checksum?: string;
  /** int64 as a string; missing for Google Docs and folders. */
  size?: string;
  /** int64 as a string: grows with every change of the file, also of its metadata. */
  version?: string;
  modifiedTime?: string;
  trashed?: boolean;
  driveId?: string;
}

export interface DriveChange {
  changeType?: 'file' | 'drive';
  removed?: boolean;
  fileId?: string;
  file?: DriveFile;
}

interface FileList {
  files?: DriveFile[];
  nextPageToken?: string;
}

export interface ChangeList {
  changes?: DriveChange[];
  nextPageToken?: string;
  newStartPageToken?: string;
}

const FILE_FIELDS = 'id,name,mimeType,parents,md5Checksum,size,version,modifiedTime,trashed,driveId';
/** Most pages of one listing, most folders one enumeration walks. */
const MAX_PAGES = 5_000;

/** A string inside a Drive query: backslashes and single quotes escaped. */
const quoted = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * A file as the connector keeps it: a folder, a file with its version (the MD5 checksum, else Drive's version
 * number), or a Google Doc with the extension it is exported to and the version of the document; null for a file
 * without content (a Form, a shortcut).
 */
export function itemOf(file: DriveFile): SourceItem | null {
  const base = { name: file.name ?? '', parentId: file.parents?.[0] ?? null };
  if (file.mimeType === FOLDER_MIME) return { ...base, folder: true, size: 0, version: '' };
  const exported = file.mimeType ? EXPORTS[file.mimeType] : undefined;
  if (exported) {
    const name = base.name.toLowerCase().endsWith(`.${exported.extension}`)
      ? base.name
      : `${base.name}.${exported.extension}`;
    return {
      ...base,
      name,
      folder: false,
      size: 0,
      version: `export:${exported.extension}:${file.version ?? file.modifiedTime ?? ''}`,
    };
  }
  if (file.mimeType?.startsWith('application/vnd.google-apps.')) return null;
  return {
    ...base,
    folder: false,
    size: Number(file.size ?? 0),
    version: file.md5Checksum ? `md5:${file.md5Checksum}` : `v:${file.version ?? file.modifiedTime ?? ''}`,
  };
}

/**
 * The Drive API v3 of one drive (a shared drive by its id, else the account's My Drive) for one connector: every
 * request asks for shared drives' items too (`supportsAllDrives`, `includeItemsFromAllDrives`), and a shared drive's
 * listings and changes are limited to it (`corpora=drive&driveId`).
 */
export class DriveApi {
  readonly #api: SourceApi;
  readonly #base: string;
  readonly #driveId: string;

  constructor(api: SourceApi, baseUrl: string, driveId: string) {
    this.#api = api;
    this.#base = baseUrl;
    this.#driveId = driveId;
  }

  /** `listing`: files.list and changes.list; `plain`: an endpoint without `supportsAllDrives` (export, drives). */
  #url(path: string, query: Record<string, string>, listing = false, plain = false): string {
    const params = new URLSearchParams(plain ? query : { ...query, supportsAllDrives: 'true' });
    if (listing) {
      params.set('includeItemsFromAllDrives', 'true');
      if (this.#driveId) params.set('driveId', this.#driveId);
    }
    return `${this.#base}/${path}?${params}`;
  }

  /** A file's metadata by id (`root` is the My Drive's root folder, a shared drive's id its root folder). */
  file(id: string): Promise<DriveFile> {
    return this.#api.json(this.#url(`files/${encodeURIComponent(id)}`, { fields: FILE_FIELDS }));
  }

  /** The shared drive (a 404 when the account cannot open it). */
  sharedDrive(): Promise<{ id: string; name?: string }> {
    return this.#api.json(
      this.#url(`drives/${encodeURIComponent(this.#driveId)}`, { fields: 'id,name' }, false, true),
    );
  }

  /** The files and folders in a folder (untrashed), all pages; `also` narrows the query further. */
  async children(folderId: string, also = ''): Promise<DriveFile[]> {
    const q = `${quoted(folderId)} in parents and trashed = false${also ? ` and ${also}` : ''}`;
    const found: DriveFile[] = [];
    let pageToken = '';
    for (let pages = 0; ; pages++) {
      if (pages > MAX_PAGES) throw new SourceError('protocol', `more than ${MAX_PAGES} pages in a folder`);
      const query: Record<string, string> = {
        q,
        pageSize: '1000',
        fields: `nextPageToken,files(${FILE_FIELDS})`,
        ...(this.#driveId ? { corpora: 'drive' } : {}),
        ...(pageToken ? { pageToken } : {}),
      };
      const page = await this.#api.json<FileList>(this.#url('files', query, true));
      found.push(...(page.files ?? []));
      if (!page.nextPageToken) return found;
      pageToken = page.nextPageToken;
    }
  }

  /** The folder at a path of folder names below the drive's root ('' the root itself); not-found if one is missing. */
  async folderAt(path: string): Promise<DriveFile> {
    let folder = await this.file(this.#driveId || 'root');
    for (const name of path ? path.split('/') : []) {
      const [next] = await this.children(folder.id, `name = ${quoted(name)} and mimeType = '${FOLDER_MIME}'`);
      if (!next) throw new SourceError('not-found', 'no such folder in the drive');
      folder = next;
    }
    return folder;
  }

  /** The page token of the changes from now on. */
  async startPageToken(): Promise<string> {
    const answer = await this.#api.json<{ startPageToken?: string }>(
      this.#url('changes/startPageToken', this.#driveId ? { driveId: this.#driveId } : {}),
    );
    if (!answer.startPageToken) throw new SourceError('protocol', 'no start page token');
    return answer.startPageToken;
  }

  /** One page of changes from `pageToken` (removed files included). */
  changes(pageToken: string): Promise<ChangeList> {
    return this.#api.json(
      this.#url(
        'changes',
        {
          pageToken,
          pageSize: '1000',
          includeRemoved: 'true',
          fields: `nextPageToken,newStartPageToken,changes(changeType,removed,fileId,file(${FILE_FIELDS}))`,
        },
        true,
      ),
    );
  }

  /** A file's content: a Google Doc exported as its item's extension says, any other file as it is. */
  content(id: string, item: SourceItem) {
    const exported = item.version.startsWith('export:')
      ? EXPORT_BY_EXTENSION.get(item.version.split(':')[1] ?? '')
      : undefined;
    return this.#api.download(
      exported
        ? this.#url(`files/${encodeURIComponent(id)}/export`, { mimeType: exported }, false, true)
        : this.#url(`files/${encodeURIComponent(id)}`, { alt: 'media' }),
    );
  }
}
