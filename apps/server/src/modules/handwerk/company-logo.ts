import type { AppContext } from '../../app-context.ts';

/**
 * The company's logo for its documents (PNG or JPEG bytes), or null when it has none. The logo upload is another
 * part of issue 17 (item 2); until it lands every company has none.
 */
export async function companyLogo(_ctx: AppContext, _companyId: string): Promise<Buffer | null> {
  return null;
}
