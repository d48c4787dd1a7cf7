import type { AppContext } from '../../app-context.ts';
import { takeSlotsOrRefuse } from '../limits/limit-error.ts';

/**
 * The public forms that send mail (sign-up, password reset, a new verification link) are limited per client
 * address and per recipient, so nobody can use them to flood an inbox or to send mail in bulk.
 */
export async function takeMailFormSlot(
  ctx: AppContext,
  form: { ip?: string; recipient: string },
): Promise<void> {
  const windowSeconds = 3600;
  await takeSlotsOrRefuse(ctx, [
    ...(form.ip
      ? [
          {
            bucket: 'mail-form:address',
            key: form.ip,
            max: ctx.config.MAIL_FORMS_MAX_PER_ADDRESS_PER_HOUR,
            windowSeconds,
          },
        ]
      : []),
    {
      bucket: 'mail-form:recipient',
      key: form.recipient.toLowerCase(),
      max: ctx.config.MAIL_MAX_PER_RECIPIENT_PER_HOUR,
      windowSeconds,
    },
  ]);
}
