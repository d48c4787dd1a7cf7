import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Checkbox, FormControlLabel, Stack } from '@mui/material';
import { changePasswordBodySchema } from '@werkwissen/shared';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useChangePassword } from '../../api/account.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { applyFieldErrors, PasswordField } from '../../components/form.tsx';
import { ChangeEmailCard } from './change-email-card.tsx';
import { SecurityFormCard } from './security-form-card.tsx';

/**
 * Change the sign-in address, and change the password; the server ends the user's other sessions and, if ticked, revokes their API keys (offered to those
 * whose role has keys).
 */
export function SecurityTab() {
  const { t } = useTranslation();
  const { ability } = useAuth();
  const hasApiKeys = ability.can('read', 'ApiKey');
  const form = useForm({
    resolver: zodResolver(changePasswordBodySchema),
    defaultValues: { currentPassword: '', password: '', confirmPassword: '', revokeApiKeys: false },
  });
  const { errors } = form.formState;
  // Field errors go on their fields; the snackbar says that the change failed.
  const change = useChangePassword({
    onSuccess: () => form.reset(),
    claimError: (error) => {
      applyFieldErrors(error, form.setError, ['currentPassword', 'password', 'confirmPassword']);
      return false;
    },
  });
  const onSubmit = form.handleSubmit((body) => change.mutate(body));
  return (
    <Stack spacing={6}>
      <ChangeEmailCard />
      <SecurityFormCard
        title={t('pages.accountSettings.changePassword')}
        intro={t('pages.accountSettings.changePasswordIntro')}
        onSubmit={onSubmit}
      >
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
        {hasApiKeys && (
          <FormControlLabel
            control={<Checkbox {...form.register('revokeApiKeys')} />}
            label={t('pages.accountSettings.revokeApiKeys')}
          />
        )}
        <Button
          type="submit"
          variant="contained"
          disabled={change.isPending}
          sx={{ alignSelf: 'flex-start' }}
        >
          {t('pages.accountSettings.changePassword')}
        </Button>
      </SecurityFormCard>
    </Stack>
  );
}
