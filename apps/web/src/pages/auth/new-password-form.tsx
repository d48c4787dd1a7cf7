import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Stack } from '@mui/material';
import { type PasswordSetResponse, resetPasswordBodySchema } from '@werkwissen/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../api/http.ts';
import { useFormBotCheck } from '../../components/bot-check.tsx';
import { errorMessage, PasswordField } from '../../components/form.tsx';
import { useSnackbar } from '../../components/snackbar.tsx';

/**
 * New password and confirmation with the token from the mail link, for the reset and set-password pages. Then on
 * to the sign-in page of the account's area with the address filled in (an invited employee lands on the
 * employee sign-in, not the data managers'). An invalid or expired link leads to the token-error page.
 */
export function NewPasswordForm({
  submit,
  successKey,
}: {
  submit(body: { token: string; password: string; confirmPassword: string }): Promise<PasswordSetResponse>;
  successKey: string;
}) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm({
    resolver: zodResolver(resetPasswordBodySchema),
    defaultValues: { token, password: '', confirmPassword: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const botCheck = useFormBotCheck();
  const onSubmit = form.handleSubmit(async (body) => {
    setFailure(null);
    if (!botCheck.ready) return setFailure(t('auth.botProtection.solveFirst'));
    try {
      const { email, loginPath } = await submit({ ...body, ...botCheck.body });
      snackbar(t(successKey));
      navigate(`${loginPath}?email=${encodeURIComponent(email)}`, { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'TOKEN_INVALID')
        navigate('/token-error', { replace: true });
      else setFailure(errorMessage(error, t));
      botCheck.renew();
    }
  });
  if (token.length < 10) {
    return <Alert severity="error">{t('errors.TOKEN_INVALID')}</Alert>;
  }
  return (
    <Stack component="form" spacing={4} noValidate onSubmit={onSubmit}>
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      <PasswordField
        {...form.register('password')}
        label={t('fields.newPassword')}
        autoComplete="new-password"
        autoFocus
        errorKey={errors.password?.message}
        helperText={t('forms.passwordPolicy')}
      />
      <PasswordField
        {...form.register('confirmPassword')}
        label={t('fields.confirmPassword')}
        autoComplete="new-password"
        errorKey={errors.confirmPassword?.message}
      />
      {botCheck.widget}
      <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
        {t('pages.resetPassword.submit')}
      </Button>
    </Stack>
  );
}
