import { Alert, Button, Card, CardContent, Chip, Skeleton, Stack, Typography } from '@mui/material';
import type { TwoFactorEnrolment } from '@werkwissen/shared';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useConfirmEnrolment,
  useDisableTwoFactor,
  useStartEnrolment,
  useTwoFactorStatus,
} from '../../api/two-factor.ts';
import { errorMessage, InputField } from '../../components/form.tsx';
import { RecoveryCodes } from '../auth/recovery-codes.tsx';
import { EnrolmentPicture } from '../auth/second-factor-step.tsx';

/**
 * Two-factor authentication in the account settings: its state, setting the app up (QR code, first code, recovery
 * codes shown once) and switching it off with a current code, unless the user's role requires it.
 */
export function TwoFactorCard() {
  const { t } = useTranslation();
  const status = useTwoFactorStatus();
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const claimError = (error: unknown) => {
    setFieldError(errorMessage(error, t));
    return true;
  };
  const start = useStartEnrolment({ onSuccess: setEnrolment });
  const confirm = useConfirmEnrolment({
    onSuccess: (res) => {
      setEnrolment(null);
      setCodes(res.recoveryCodes);
      setCode('');
    },
    claimError,
  });
  const disable = useDisableTwoFactor({ onSuccess: () => setCode(''), claimError });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFieldError(null);
    const value = code.replace(/\s/g, '');
    if (enrolment) confirm.mutate(value);
    else disable.mutate(value);
  };

  const data = status.data;
  return (
    <Card>
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
          <Typography variant="h6" component="h2">
            {t('auth.twoFactor.title')}
          </Typography>
          {data && (
            <Chip
              size="small"
              color={data.enabled ? 'success' : 'default'}
              label={t(data.enabled ? 'auth.twoFactor.statusOn' : 'auth.twoFactor.statusOff')}
            />
          )}
        </Stack>
        <Typography color="text.secondary" sx={{ mb: 4 }}>
          {t('auth.twoFactor.accountIntro')}
        </Typography>
        {!data ? (
          <Skeleton variant="rounded" height={56} />
        ) : (
          <Stack spacing={4} sx={{ maxWidth: 480 }}>
            {data.required && <Alert severity="info">{t('auth.twoFactor.requiredNote')}</Alert>}
            {codes && <RecoveryCodes codes={codes} />}
            {data.enabled && (
              <Typography>{t('auth.twoFactor.recoveryLeft', { count: data.recoveryCodesLeft })}</Typography>
            )}
            {!data.enabled && !enrolment && (
              <Button
                variant="contained"
                disabled={start.isPending}
                onClick={() => start.mutate()}
                sx={{ alignSelf: 'flex-start' }}
              >
                {t('auth.twoFactor.enable')}
              </Button>
            )}
            {enrolment && <EnrolmentPicture enrolment={enrolment} />}
            {(enrolment || (data.enabled && !data.required)) && (
              <Stack component="form" spacing={3} noValidate onSubmit={submit}>
                {!enrolment && <Typography>{t('auth.twoFactor.disableIntro')}</Typography>}
                {fieldError && (
                  <Alert severity="error" role="alert">
                    {fieldError}
                  </Alert>
                )}
                <InputField
                  name="two-factor-code"
                  label={t('auth.twoFactor.code')}
                  value={code}
                  onChange={(event) => setCode(event.target.value)}
                  autoComplete="one-time-code"
                  inputProps={{ inputMode: 'numeric', dir: 'ltr' }}
                />
                <Button
                  type="submit"
                  variant={enrolment ? 'contained' : 'outlined'}
                  color={enrolment ? 'primary' : 'error'}
                  disabled={!code.trim() || confirm.isPending || disable.isPending}
                  sx={{ alignSelf: 'flex-start' }}
                >
                  {t(enrolment ? 'auth.twoFactor.verify' : 'auth.twoFactor.disable')}
                </Button>
              </Stack>
            )}
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
