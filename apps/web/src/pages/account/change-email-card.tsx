import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { changeEmailBodySchema } from '@werkwissen/shared';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useChangeEmail } from '../../api/account.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { applyFieldErrors, PasswordField } from '../../components/form.tsx';
import { FormField } from '../../components/form-field.tsx';

/**
 * Change the sign-in address: the current password proves the owner, and the server mails a confirmation link to the
 * new address; the account keeps its address until that link is opened (`/confirm-email`).
 */
export function ChangeEmailCard() {
  const { t } = useTranslation();
  const email = useAuth().session!.userData.email;
  const form = useForm({
    resolver: zodResolver(changeEmailBodySchema),
    defaultValues: { email: '', currentPassword: '' },
  });
  const { errors } = form.formState;
  const change = useChangeEmail({
    onSuccess: () => form.reset(),
    claimError: (error) => {
      applyFieldErrors(error, form.setError, ['email', 'currentPassword']);
      return false;
    },
  });
  const onSubmit = form.handleSubmit((body) => change.mutate(body));
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {t('pages.accountSettings.changeEmail')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 4 }}>
          {t('pages.accountSettings.changeEmailIntro', { email })}
        </Typography>
        <Stack
          component="form"
          spacing={4}
          noValidate
          onSubmit={onSubmit}
          sx={{ maxWidth: 480 }}
          aria-label={t('pages.accountSettings.changeEmail')}
        >
          <FormField
            {...form.register('email')}
            type="email"
            label={t('fields.newEmail')}
            autoComplete="email"
            errorKey={errors.email?.message}
          />
          <PasswordField
            {...form.register('currentPassword')}
            label={t('fields.currentPassword')}
            autoComplete="current-password"
            errorKey={errors.currentPassword?.message}
          />
          <Button
            type="submit"
            variant="contained"
            disabled={change.isPending}
            sx={{ alignSelf: 'flex-start' }}
          >
            {t('pages.accountSettings.changeEmailSubmit')}
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}
