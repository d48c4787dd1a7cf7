import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Link as MuiLink, Stack } from '@mui/material';
import { areaOfPath, authContracts, forgotPasswordBodySchema, LOGIN_BY_AREA } from '@werkwissen/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { call } from '../../api/http.ts';
import { useFormBotCheck } from '../../components/bot-check.tsx';
import { errorMessage, InputField } from '../../components/form.tsx';
import { AuthCard } from './auth-card.tsx';

/** Forgot password: e-mail, send reset link, back to login. The answer is the same for unknown addresses. */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const area = areaOfPath(useLocation().pathname);
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm({ resolver: zodResolver(forgotPasswordBodySchema), defaultValues: { email: '' } });
  const botCheck = useFormBotCheck();
  const onSubmit = form.handleSubmit(async (body) => {
    setFailure(null);
    if (!botCheck.ready) return setFailure(t('auth.botProtection.solveFirst'));
    try {
      await call(authContracts.forgotPassword, { body: { ...body, ...botCheck.body } });
      // Said once, beside the form (a toast as well repeated it).
      setSent(true);
    } catch (error) {
      setFailure(errorMessage(error, t, 'pages.forgotPassword.failed'));
    }
    // A solved check counts once: another request needs a new one.
    botCheck.renew();
  });
  return (
    <AuthCard title={t('pages.forgotPassword.heading')} intro={t('pages.forgotPassword.intro')}>
      <Stack component="form" spacing={4} noValidate onSubmit={onSubmit}>
        {sent && <Alert severity="success">{t('messages.passwordResetSent')}</Alert>}
        {failure && (
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
        )}
        <InputField
          {...form.register('email')}
          label={t('fields.email')}
          type="email"
          autoComplete="email"
          autoFocus
          errorKey={form.formState.errors.email?.message}
        />
        {botCheck.widget}
        <Button type="submit" variant="contained" size="large" disabled={form.formState.isSubmitting}>
          {t('pages.forgotPassword.submit')}
        </Button>
        <MuiLink component={Link} to={LOGIN_BY_AREA[area]} sx={{ textAlign: 'center' }}>
          {t('pages.forgotPassword.back')}
        </MuiLink>
      </Stack>
    </AuthCard>
  );
}
