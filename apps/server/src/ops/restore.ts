/** `npm run restore -- <backup folder>`: restores a backup into an empty DATA_DIR (see embedded-backup.ts). */
import { restoreEmbedded } from './embedded-backup.ts';
import { runOpsCommand } from './ops-cli.ts';

await runOpsCommand('npm run restore -- <backup folder>', async (dataDir, folder) => {
  const manifest = await restoreEmbedded(folder, dataDir);
  return `Restored the backup of ${manifest.createdAt} from ${folder} into ${dataDir}. Start the server as usual.`;
});
