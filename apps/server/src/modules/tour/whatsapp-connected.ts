import { eq } from 'drizzle-orm';
import type { AppContext } from '../../app-context.ts';
import { whatsappConnections } from '../../db/schema/index.ts';

/** Whether the company has connected its WhatsApp number (the tour's last step is done when it has). */
export async function whatsappConnected(ctx: AppContext, companyId: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ companyId: whatsappConnections.companyId })
    .from(whatsappConnections)
    .where(eq(whatsappConnections.companyId, companyId));
  return row !== undefined;
}
