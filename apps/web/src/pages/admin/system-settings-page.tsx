import { Alert, Card, CardContent, Divider, Skeleton, Stack, Tab, Tabs } from '@mui/material';
import { SETTINGS_TAB_PATHS, SETTINGS_TABS, type SettingsTab } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { matchPath, Navigate, useLocation, useNavigate } from 'react-router';
import { useSystemSettings } from '../../api/system-settings.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { errorMessage } from '../../components/form.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { LogoUpload } from './logo-upload.tsx';
import { OAuthAppSection } from './oauth-app-section.tsx';
import { SettingsTabForm } from './settings-tab-form.tsx';
import { SignInProvidersSection } from './sign-in-providers-section.tsx';

const tabOfPath = (segment: string) => SETTINGS_TABS.find((tab) => SETTINGS_TAB_PATHS[tab] === segment);

/**
 * `/admin/system-settings/:tab`: the settings an operator changes at run time, one tab per group of the API. Saved
 * values apply at once (the branding the app shows is loaded again); the environment's value is each field's default.
 */
export default function SystemSettingsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { ability } = useAuth();
  const canEdit = ability.can('update', 'Setting');
  const segment = matchPath('/admin/system-settings/:tab', useLocation().pathname)?.params.tab ?? '';
  const tab: SettingsTab | undefined = tabOfPath(segment);
  const settings = useSystemSettings();

  if (!tab) return <Navigate to={`/admin/system-settings/${SETTINGS_TAB_PATHS.general}`} replace />;
  return (
    <Stack spacing={6}>
      <PageHeader title={t('admin.settings.title')} />
      {!canEdit && <Alert severity="info">{t('admin.settings.readOnly')}</Alert>}
      <Card>
        <Tabs
          value={tab}
          onChange={(_e, next: SettingsTab) => navigate(`/admin/system-settings/${SETTINGS_TAB_PATHS[next]}`)}
          variant="scrollable"
          allowScrollButtonsMobile
          sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }}
        >
          {SETTINGS_TABS.map((id) => (
            <Tab key={id} value={id} label={t(`admin.settings.tabs.${id}`)} />
          ))}
        </Tabs>
        <CardContent>
          {settings.isError && <Alert severity="error">{errorMessage(settings.error, t)}</Alert>}
          {settings.isPending && <Skeleton variant="rounded" height={240} />}
          {settings.data && (
            <Stack spacing={6}>
              <SettingsTabForm
                key={`${tab}:${settings.data.updatedAt ?? ''}`}
                tab={tab}
                settings={settings.data}
                canEdit={canEdit}
              />
              {tab === 'signUp' && (
                <>
                  <Divider />
                  <SignInProvidersSection canEdit={canEdit} />
                </>
              )}
              {tab === 'general' && (
                <>
                  <Divider />
                  <OAuthAppSection kind="microsoft" canEdit={canEdit} />
                  <Divider />
                  <OAuthAppSection kind="google" canEdit={canEdit} />
                </>
              )}
              {tab === 'branding' && (
                <>
                  <Divider />
                  <LogoUpload settings={settings.data} canEdit={canEdit} />
                </>
              )}
            </Stack>
          )}
        </CardContent>
      </Card>
    </Stack>
  );
}
