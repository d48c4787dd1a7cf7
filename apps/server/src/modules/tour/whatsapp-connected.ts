import type { AppContext } from '../../app-context.ts';

/**
 * Whether the company has connected WhatsApp: the tour's last step is done when it has. The WhatsApp channel is
 * being built separately; until its connection table exists no company can have connected, so this answers false.
 * The channel's work replaces the body with a look at its own table.
 */
export async function whatsappConnected(_ctx: AppContext, _companyId: string): Promise<boolean> {
  return false;
}
