import { Stack, Tab, Tabs } from '@mui/material';
import {
  IconBrandWhatsapp,
  IconBuildingStore,
  IconCreditCard,
  IconKey,
  IconLock,
  IconUser,
} from '@tabler/icons-react';
import { areaOfPath } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useAuth } from '../../auth/auth-context.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { AccountTab } from './account-tab.tsx';
import { ApiKeysTab } from './api-keys-tab.tsx';
import { BillingTab } from './billing-tab.tsx';
import { CompanyTab } from './company-tab.tsx';
import { IdentitiesCard } from './identities-card.tsx';
import { PhoneVerificationCard } from './phone-verification-card.tsx';
import { SecurityTab } from './security-tab.tsx';
import { TwoFactorCard } from './two-factor-card.tsx';
import { WhatsAppTab } from './whatsapp-tab.tsx';

/**
 * Account settings of every area: account details, security (e-mail address and password), personal API keys, and in
 * the customer's area the company's details for whoever may change them.
 */
export default function AccountSettingsPage() {
  const { t } = useTranslation();
  const { ability, session } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const area = areaOfPath(location.pathname);
  const base = area === 'user' ? '/account-settings' : `/${area}/account-settings`;
  const tab = location.pathname.split('/').pop() ?? 'account';
  const tabs = [
    { id: 'account', icon: <IconUser size={20} /> },
    { id: 'security', icon: <IconLock size={20} /> },
    ...(ability.can('manage', 'ApiKey') ? [{ id: 'api-keys', icon: <IconKey size={20} /> }] : []),
    ...(area === 'user' && ability.can('update', 'Company')
      ? [{ id: 'company', icon: <IconBuildingStore size={20} /> }]
      : []),
    // "Billing and plans": the company's plan, for whoever may read it (the data manager).
    ...(area === 'user' && ability.can('read', 'Subscription')
      ? [{ id: 'billing', icon: <IconCreditCard size={20} />, label: 'billing.tab' }]
      : []),
    // The company's WhatsApp number (the guided tour links here), for whoever may change the company's settings.
    ...(area === 'user' && ability.can('update', 'Company')
      ? [{ id: 'whatsapp', icon: <IconBrandWhatsapp size={20} />, label: 'whatsapp.tab' }]
      : []),
  ];
  if (!tabs.some((x) => x.id === tab)) return <Navigate to={`${base}/account`} replace />;
  return (
    <Stack spacing={6}>
      <PageHeader title={t('pages.accountSettings.title')} />
      <Tabs
        value={tab}
        onChange={(_e, value: string) => navigate(`${base}/${value}`)}
        variant="scrollable"
        aria-label={t('pages.accountSettings.title')}
      >
        {tabs.map((x) => (
          <Tab
            key={x.id}
            value={x.id}
            icon={x.icon}
            iconPosition="start"
            label={t(('label' in x && x.label) || `pages.accountSettings.tabs.${x.id}`)}
          />
        ))}
      </Tabs>
      {tab === 'account' && (
        <Stack spacing={6}>
          <AccountTab />
          {/* A company's users ask by WhatsApp from their own, confirmed number. */}
          {session?.userData.companyId && <PhoneVerificationCard />}
        </Stack>
      )}
      {tab === 'security' && (
        <Stack spacing={6}>
          <SecurityTab />
          <TwoFactorCard />
          <IdentitiesCard />
        </Stack>
      )}
      {tab === 'api-keys' && <ApiKeysTab />}
      {tab === 'company' && <CompanyTab />}
      {tab === 'billing' && <BillingTab />}
      {tab === 'whatsapp' && <WhatsAppTab />}
    </Stack>
  );
}
