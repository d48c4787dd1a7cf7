import { Alert, Box, Button, Link, Skeleton, Stack, Typography } from '@mui/material';
import type { MeResponse, TwoFactorEnrolment } from '@werkwissen/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { startSignInEnrolment, verifySecondFactor } from '../../api/second-factor-sign-in.ts';
import { errorMessage, InputField } from '../../components/form.tsx';
import { RecoveryCodes } from './recovery-codes.tsx';

/**
 * The second step of a sign-in, after a right password: the code of the authenticator app (or a recovery code), or,
 * for an operator without one, setting the app up first (QR code, the secret to type in, its first code), after which
 * the recovery codes are shown once before the session goes on.
 */
export function SecondFactorStep({
  step,
  onSignedIn,
}: {
  step: 'verify' | 'enrol';
  onSignedIn(me: MeResponse): void;
}) {
  const { t } = useTranslation();
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<{ me: MeResponse; codes: string[] } | null>(null);

  useEffect(() => {
    if (step !== 'enrol') return;
    startSignInEnrolment().then(setEnrolment, (error: unknown) => setFailure(errorMessage(error, t)));
  }, [step, t]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setBusy(true);
    try {
      const proof = useRecovery ? { recoveryCode: value.trim() } : { code: value.replace(/\s/g, '') };
      const { recoveryCodes, ...me } = await verifySecondFactor(proof);
      if (recoveryCodes) setDone({ me, codes: recoveryCodes });
      else onSignedIn(me);
    } catch (error) {
      setFailure(errorMessage(error, t));
      setValue('');
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <Stack spacing={4}>
        <RecoveryCodes codes={done.codes} />
        <Button
          variant="contained"
          size="large"
          data-testid="recovery-codes-continue"
          onClick={() => onSignedIn(done.me)}
        >
          {t('auth.twoFactor.continue')}
        </Button>
      </Stack>
    );
  }

  return (
    <Stack component="form" spacing={4} noValidate onSubmit={submit} aria-label={t('auth.twoFactor.title')}>
      <Typography variant="h6" component="h2">
        {t(step === 'enrol' ? 'auth.twoFactor.enrolTitle' : 'auth.twoFactor.title')}
      </Typography>
      {failure && (
        <Alert severity="error" role="alert" data-testid="two-factor-error">
          {failure}
        </Alert>
      )}
      {step === 'enrol' && <EnrolmentPicture enrolment={enrolment} />}
      <Typography color="text.secondary">
        {t(useRecovery ? 'auth.twoFactor.recoveryIntro' : 'auth.twoFactor.codeIntro')}
      </Typography>
      <InputField
        label={t(useRecovery ? 'auth.twoFactor.recoveryCode' : 'auth.twoFactor.code')}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        autoComplete="one-time-code"
        autoFocus
        name="second-factor"
        inputProps={useRecovery ? { dir: 'ltr' } : { inputMode: 'numeric', dir: 'ltr' }}
      />
      <Button type="submit" variant="contained" size="large" disabled={busy || !value.trim()}>
        {t('auth.twoFactor.verify')}
      </Button>
      {step === 'verify' && (
        <Link component="button" type="button" onClick={() => setUseRecovery((r) => !r)}>
          {t(useRecovery ? 'auth.twoFactor.useApp' : 'auth.twoFactor.useRecovery')}
        </Link>
      )}
    </Stack>
  );
}

/** The QR code to scan and the secret to type in by hand. */
export function EnrolmentPicture({ enrolment }: { enrolment: TwoFactorEnrolment | null }) {
  const { t } = useTranslation();
  if (!enrolment) return <Skeleton variant="rounded" width={200} height={200} />;
  return (
    <Stack spacing={2} sx={{ alignItems: 'center' }}>
      <Typography color="text.secondary">{t('auth.twoFactor.scan')}</Typography>
      <Box
        component="img"
        src={enrolment.qrCode}
        alt={t('auth.twoFactor.qrAlt')}
        sx={{ width: 200, height: 200, bgcolor: '#fff', p: 1, borderRadius: 1 }}
      />
      <Typography variant="body2" color="text.secondary">
        {t('auth.twoFactor.manualKey')}
      </Typography>
      <Typography
        data-testid="two-factor-secret"
        dir="ltr"
        sx={{ fontFamily: 'monospace', wordBreak: 'break-all', userSelect: 'all' }}
      >
        {enrolment.secret}
      </Typography>
    </Stack>
  );
}
