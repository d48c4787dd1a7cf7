import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@mui/material';
import { changeEmailBodySchema } from '@werkwissen/shared';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useChangeEmail } from '../../api/account.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { applyFieldErrors, PasswordField } from '../../components/form.tsx';
import { FormField } from '../../components/form-field.tsx';
import { SecurityFormCard } from './security-form-card.tsx';

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
    <SecurityFormCard
      title={t('pages.accountSettings.changeEmail')}
      intro={t('pages.accountSettings.changeEmailIntro', { email })}
      onSubmit={onSubmit}
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
      <Button type="submit" variant="contained" disabled={change.isPending} sx={{ alignSelf: 'flex-start' }}>
        {t('pages.accountSettings.changeEmailSubmit')}
      </Button>
    </SecurityFormCard>
  );
}
