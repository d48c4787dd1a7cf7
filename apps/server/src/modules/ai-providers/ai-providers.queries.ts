import { type SQL, sql } from 'drizzle-orm';
import type { aiProviders } from '../../db/schema/index.ts';

/** What a connection is made of, as stored: also read along with a chat, so that asking costs no extra statement. */
export type StoredConnection = Pick<
  typeof aiProviders.$inferSelect,
  'provider' | 'baseUrl' | 'apiKeyEncrypted' | 'model' | 'transcriptionModel'
>;

/**
 * The saved connection of `provider` of `company` as one json column (null when not configured), to be read in the
 * statement that loads a chat; `connectionOf` opens it.
 */
export const storedConnectionColumn = (company: SQL, provider: SQL): SQL =>
  sql`(select json_build_object('provider', p.provider, 'baseUrl', p.base_url,
      'apiKeyEncrypted', p.api_key_encrypted, 'model', p.model, 'transcriptionModel', p.transcription_model)
    from ai_providers p where p.company_id = ${company} and p.provider = ${provider})`;
