import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { authContracts, changePasswordBodySchema } from '@werkwissen/shared';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http.ts';
import { applyFieldErrors, PasswordField } from '../../components/form.tsx';
import { useSnackbar } from '../../components/snackbar.tsx';

/** Change password; the server ends the user's other sessions. */
export function SecurityTab() {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const form = useForm({
    resolver: zodResolver(changePasswordBodySchema),
    defaultValues: { currentPassword: '', password: '', confirmPassword: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (body) => {
    try {
      await call(authContracts.changePassword, { body });
      form.reset();
      snackbar(t('messages.passwordChanged'));
    } catch (error) {
      applyFieldErrors(error, form.setError, ['currentPassword', 'password', 'confirmPassword']);
      snackbar(t('pages.accountSettings.passwordFailed'), 'error');
    }
  });
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {t('pages.accountSettings.changePassword')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 4 }}>
          {t('pages.accountSettings.changePasswordIntro')}
        </Typography>
        <Stack component="form" spacing={4} noValidate onSubmit={onSubmit} sx={{ maxWidth: 480 }}>
          <PasswordField
            {...form.register('currentPassword')}
            label={t('fields.currentPassword')}
            autoComplete="current-password"
            errorKey={errors.currentPassword?.message}
          />
          <PasswordField
            {...form.register('password')}
            label={t('fields.newPassword')}
            autoComplete="new-password"
            errorKey={errors.password?.message}
            helperText={t('forms.passwordPolicy')}
          />
          <PasswordField
            {...form.register('confirmPassword')}
            label={t('fields.confirmPassword')}
            autoComplete="new-password"
            errorKey={errors.confirmPassword?.message}
          />
          <Button type="submit" variant="contained" disabled={isSubmitting} sx={{ alignSelf: 'flex-start' }}>
            {t('pages.accountSettings.changePassword')}
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}
