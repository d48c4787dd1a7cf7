import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { acquireDataDirLock } from '../db/embedded/data-dir-lock.ts';
import { durableStartParams } from '../db/embedded/pglite-process.ts';

/**
 * Backup and restore of the embedded default (`npm run backup` / `npm run restore`): the PGlite data folder as
 * PGlite's own archive (`dumpDataDir`), the uploaded files, and the generated secrets (without the encryption key
 * the stored provider keys could not be read). Both take the data folder's lock, so they refuse while a server
 * uses it: a stopped database is consistent by construction, which an online copy of PGlite's files is not.
 */

const FORMAT = 'werkwissen-embedded-backup';
const MANIFEST = 'backup.json';
const DATABASE_ARCHIVE = 'database.tar.gz';
/** What a data folder holds besides the database: the files store and the generated secrets. */
const COPIED = ['files', 'secrets.json'];

export interface BackupManifest {
  format: typeof FORMAT;
  version: 1;
  createdAt: string;
  /** The PGlite release that wrote the archive; a restore needs one that reads its PostgreSQL version. */
  pglite: string;
  copied: string[];
}

export class BackupError extends Error {}

const pgliteVersion = (): string =>
  JSON.parse(
    readFileSync(
      join(createRequire(import.meta.url).resolve('@electric-sql/pglite'), '../../package.json'),
      'utf8',
    ),
  ).version;

function isEmptyOrMissing(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/** Writes a backup of a stopped server's data folder into `target` (a new or empty folder). */
export async function backupEmbedded(dataDir: string, target: string): Promise<BackupManifest> {
  if (!existsSync(join(dataDir, 'pgdata', 'PG_VERSION')))
    throw new BackupError(`${dataDir} holds no embedded database to back up.`);
  if (!isEmptyOrMissing(target)) throw new BackupError(`${target} is not empty: choose a new folder.`);
  const release = acquireDataDirLock(dataDir);
  try {
    mkdirSync(target, { recursive: true });
    const db = await PGlite.create({
      dataDir: join(dataDir, 'pgdata'),
      extensions: { vector },
      startParams: durableStartParams(),
    });
    try {
      const archive = await db.dumpDataDir('gzip');
      writeFileSync(join(target, DATABASE_ARCHIVE), Buffer.from(await archive.arrayBuffer()));
    } finally {
      await db.close();
    }
    const copied = COPIED.filter((name) => existsSync(join(dataDir, name)));
    for (const name of copied) cpSync(join(dataDir, name), join(target, name), { recursive: true });
    const manifest: BackupManifest = {
      format: FORMAT,
      version: 1,
      createdAt: new Date().toISOString(),
      pglite: pgliteVersion(),
      copied,
    };
    writeFileSync(join(target, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    return manifest;
  } finally {
    release();
  }
}

/** Restores a backup into `dataDir`, which must be new or empty; a server started on it then finds everything. */
export async function restoreEmbedded(backup: string, dataDir: string): Promise<BackupManifest> {
  const manifestPath = join(backup, MANIFEST);
  if (!existsSync(manifestPath)) throw new BackupError(`${backup} is not a backup (no ${MANIFEST}).`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as BackupManifest;
  if (manifest.format !== FORMAT || manifest.version !== 1)
    throw new BackupError(`${backup} is not a backup of this kind (${manifest.format} ${manifest.version}).`);
  if (!isEmptyOrMissing(dataDir))
    throw new BackupError(`${dataDir} is not empty: restore into a new or empty data folder.`);
  const release = acquireDataDirLock(dataDir);
  try {
    const archive = new Blob([new Uint8Array(readFileSync(join(backup, DATABASE_ARCHIVE)))]);
    const pgdata = join(dataDir, 'pgdata');
    mkdirSync(pgdata, { recursive: true });
    const db = await PGlite.create({
      dataDir: pgdata,
      loadDataDir: archive,
      extensions: { vector },
      startParams: durableStartParams(),
    });
    await db.close();
    for (const name of manifest.copied) cpSync(join(backup, name), join(dataDir, name), { recursive: true });
    return manifest;
  } finally {
    release();
  }
}
