import type { AppContext } from '../../app-context.ts';
import { SecretBox } from '../ai-providers/secret-box.ts';
import type { SourceClient } from './source-client.ts';
import type { ConnectorRow } from './sync.service.ts';
import { webdavSource } from './webdav-source.ts';

/** The source of a stored connector, its password opened from the sealed form, through the outbound policy. */
export function openSource(ctx: AppContext, connector: ConnectorRow): SourceClient {
  const password = new SecretBox(ctx.config.secrets.encryptionKey).open(connector.secretSealed);
  return webdavSource(
    { url: connector.url, userName: connector.userName, password, folder: connector.folder },
    ctx.outbound.policy,
  );
}
