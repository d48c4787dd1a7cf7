import { areaOfPath, authContracts, LOGIN_BY_AREA } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { call } from '../../api/http.ts';
import { AuthCard } from './auth-card.tsx';
import { NewPasswordForm } from './new-password-form.tsx';

/** Confirm password: the link of the reset mail (valid one hour, once). */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const area = areaOfPath(useLocation().pathname);
  return (
    <AuthCard title={t('pages.resetPassword.heading')} intro={t('pages.resetPassword.intro')}>
      <NewPasswordForm
        submit={(body) => call(authContracts.resetPassword, { body })}
        successKey="messages.passwordChanged"
        next={LOGIN_BY_AREA[area]}
      />
    </AuthCard>
  );
}
