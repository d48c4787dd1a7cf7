import { guard } from '@werkwissen/shared';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { useConfig } from '../app/config-context.tsx';
import { useAuth } from '../auth/auth-context.tsx';
import { PageLoading } from '../components/page-load-bar.tsx';
import { BlankLayout } from '../layouts/blank-layout.tsx';
import { DefaultLayout } from '../layouts/default-layout.tsx';
import { PAGES } from '../pages/index.ts';

/** The one route of the router: the guard decides, the manifest names the page, the page loads lazily. */
export function GuardedRoute() {
  const location = useLocation();
  const auth = useAuth();
  const config = useConfig();
  const { t } = useTranslation();
  const decision = guard({
    path: location.pathname.length > 1 ? location.pathname.replace(/\/+$/, '') : location.pathname,
    search: location.search,
    session: auth.state,
    can: (action, subject) => auth.ability.can(action, subject),
    signupEnabled: config.signupEnabled,
    invoiceListEnabled: config.appMode === 'clarityflow',
  });

  const clearSession = decision.kind === 'redirect' && decision.clearSession;
  useEffect(() => {
    if (clearSession) auth.clear();
  }, [clearSession, auth]);

  const title = decision.kind === 'allow' ? t(decision.route.title) : t('pages.notFound.title');
  useEffect(() => {
    document.title = `${title} | ${config.appTitle}`;
  }, [title, config.appTitle]);

  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  if (decision.kind === 'notFound') {
    const NotFound = PAGES.NotFound!;
    return (
      <BlankLayout>
        <Suspense fallback={<PageLoading />}>
          <NotFound />
        </Suspense>
      </BlankLayout>
    );
  }
  const Page = PAGES[decision.route.page] ?? PAGES.NotFound!;
  const Layout = decision.route.layout === 'blank' ? BlankLayout : DefaultLayout;
  return (
    <Layout>
      <Suspense fallback={<PageLoading />}>
        <Page key={decision.route.id} />
      </Suspense>
    </Layout>
  );
}
