import { Alert, Button, Card, CardContent, Chip, Skeleton, Stack, Typography } from '@mui/material';
import { IconBrandWhatsapp } from '@tabler/icons-react';
import type { PhoneVerificationCode } from '@werkwissen/shared';
import { formatPhone } from '@werkwissen/shared/phone';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePhoneVerification, useStartPhoneVerification } from '../../api/phone-verification.ts';
import { useAuth } from '../../auth/auth-context.tsx';

/** Numbers and codes read left to right, also inside right-to-left text. */
const ltr = (value: string) => `\u2066${value}\u2069`;

/**
 * The user's phone number as their WhatsApp identity: whether it is confirmed, and confirming it with a code sent
 * from the phone by WhatsApp to the company's number (WhatsApp's click-to-chat link fills it in). Until then,
 * WhatsApp does not answer the number as the user. Not while an operator views the product as the user.
 */
export function PhoneVerificationCard() {
  const { t, i18n } = useTranslation();
  const auth = useAuth();
  const session = auth.session!;
  const status = usePhoneVerification(session.userData.phone ?? null);
  const [issued, setIssued] = useState<PhoneVerificationCode | null>(null);
  const start = useStartPhoneVerification({ onSuccess: setIssued });
  const data = status.data;
  const phone = data?.phone ? ltr(formatPhone(data.phone)) : '';
  const pending = data?.state === 'pending' && issued;
  const time = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { timeStyle: 'short' }).format(new Date(iso));
  return (
    <Card data-testid="phone-verification">
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 4 }}>
          <Typography variant="h6" component="h2">
            {t('whatsapp.phone.title')}
          </Typography>
          {data?.state === 'verified' && (
            <Chip size="small" color="success" label={t('whatsapp.phone.confirmed')} />
          )}
        </Stack>
        {!data ? (
          <Skeleton variant="rounded" height={56} />
        ) : (
          <Stack spacing={3} sx={{ maxWidth: 560 }}>
            {!data.whatsappConnected && (
              <Typography color="text.secondary">{t('whatsapp.phone.notConnected')}</Typography>
            )}
            {data.whatsappConnected && data.state === 'none' && (
              <Typography color="text.secondary">{t('whatsapp.phone.none')}</Typography>
            )}
            {data.state === 'verified' && (
              <Alert severity="success">{t('whatsapp.phone.verified', { phone })}</Alert>
            )}
            {data.whatsappConnected && (data.state === 'unverified' || data.state === 'pending') && (
              <>
                <Alert severity="warning">{t('whatsapp.phone.unverified', { phone })}</Alert>
                {session.impersonation ? (
                  <Typography color="text.secondary">{t('whatsapp.phone.impersonating')}</Typography>
                ) : (
                  !pending && (
                    <Button
                      variant="contained"
                      startIcon={<IconBrandWhatsapp size={20} />}
                      disabled={start.isPending}
                      onClick={() => start.mutate()}
                      sx={{ alignSelf: 'flex-start' }}
                    >
                      {t('whatsapp.phone.start')}
                    </Button>
                  )
                )}
              </>
            )}
            {pending && (
              <Stack spacing={2} data-testid="phone-verification-code">
                <Typography>
                  {issued.whatsappNumber
                    ? t('whatsapp.phone.instructions', { phone, number: ltr(issued.whatsappNumber) })
                    : t('whatsapp.phone.instructionsNoNumber', { phone })}
                </Typography>
                <Typography
                  variant="h4"
                  component="p"
                  dir="ltr"
                  sx={{ fontVariantNumeric: 'tabular-nums', letterSpacing: '0.2em', alignSelf: 'flex-start' }}
                >
                  {issued.code}
                </Typography>
                <Typography variant="body2" color="text.secondary" role="status">
                  {t('whatsapp.phone.waiting', { time: time(issued.expiresAt) })}
                </Typography>
                <Stack direction="row" spacing={2} sx={{ flexWrap: 'wrap' }}>
                  {issued.link && (
                    <Button
                      variant="contained"
                      color="success"
                      href={issued.link}
                      target="_blank"
                      rel="noopener noreferrer"
                      startIcon={<IconBrandWhatsapp size={20} />}
                    >
                      {t('whatsapp.phone.open')}
                    </Button>
                  )}
                  <Button variant="outlined" disabled={start.isPending} onClick={() => start.mutate()}>
                    {t('whatsapp.phone.again')}
                  </Button>
                </Stack>
              </Stack>
            )}
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
