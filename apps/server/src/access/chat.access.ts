import { sql } from 'drizzle-orm';
import { divisionAccess } from './division.access.ts';
import { defineAccess } from './resource-access.ts';
import { column } from './rule-sql.ts';

/**
 * Chats: `userId` is the owner; `divisionsReadable` holds when the reader may read every division the chat draws on
 * (the default roles show a company's public chats only then).
 */
export const chatAccess = defineAccess({
  subject: 'Chat',
  table: 'chats',
  company: 'companyId',
  fields: {
    id: column('id'),
    companyId: column('company_id'),
    userId: column('owner_id'),
    visibility: column('visibility'),
    divisionsReadable: {
      holds: (row, actor) => sql`not exists (select 1 from chat_divisions access_chat_division
        where access_chat_division.chat_id = ${row}.id and not exists (
          select 1 from divisions access_readable where access_readable.id = access_chat_division.division_id
            and ${divisionAccess.where(actor, 'read', 'access_readable')}))`,
    },
  },
});
