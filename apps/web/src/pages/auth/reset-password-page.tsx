import { authContracts } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http.ts';
import { AuthCard } from './auth-card.tsx';
import { NewPasswordForm } from './new-password-form.tsx';

/** Confirm password: the link of the reset mail (valid one hour, once). */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('pages.resetPassword.heading')} intro={t('pages.resetPassword.intro')}>
      <NewPasswordForm
        submit={(body) => call(authContracts.resetPassword, { body })}
        successKey="messages.passwordChanged"
      />
    </AuthCard>
  );
}
