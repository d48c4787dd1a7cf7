import { authContracts } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http.ts';
import { AuthCard } from './auth-card.tsx';
import { NewPasswordForm } from './new-password-form.tsx';

/** Set password: invited users and the first administrator choose their password from the mailed link. */
export default function SetPasswordPage() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('pages.setPassword.heading')} intro={t('pages.setPassword.intro')}>
      <NewPasswordForm
        submit={(body) => call(authContracts.setPassword, { body })}
        successKey="messages.passwordSet"
      />
    </AuthCard>
  );
}
