import { and, eq, gt, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.ts';
import { oidcFlows } from '../../db/schema/index.ts';

/** A sign-in or link flow waiting for the provider's answer, as stored. */
export type OidcFlow = typeof oidcFlows.$inferSelect;

/** A new flow, under the hash of its cookie token. */
export async function insertFlow(db: DbOrTx, flow: typeof oidcFlows.$inferInsert): Promise<void> {
  await db.insert(oidcFlows).values(flow);
}

/** Spends the flow of a token's hash, if it is unused and not expired: the flow, or null. */
export async function spendFlow(db: DbOrTx, tokenHash: string): Promise<OidcFlow | null> {
  const [flow] = await db
    .update(oidcFlows)
    .set({ usedAt: new Date() })
    .where(
      and(eq(oidcFlows.tokenHash, tokenHash), isNull(oidcFlows.usedAt), gt(oidcFlows.expiresAt, new Date())),
    )
    .returning();
  return flow ?? null;
}
