/** `npm run backup -- <folder>`: a backup of the stopped embedded default's data folder (see embedded-backup.ts). */
import { backupEmbedded } from './embedded-backup.ts';
import { runOpsCommand } from './ops-cli.ts';

await runOpsCommand('npm run backup -- <new folder>', async (dataDir, folder) => {
  const manifest = await backupEmbedded(dataDir, folder);
  return `Backed up ${dataDir} (database, ${manifest.copied.join(', ') || 'no files yet'}) to ${folder}.`;
});
