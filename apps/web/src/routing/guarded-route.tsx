import { areaOfPath, guard } from '@werkwissen/shared';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { useConfig } from '../app/config-context.tsx';
import { useAuth } from '../auth/auth-context.tsx';
import { PageLoading } from '../components/page-load-bar.tsx';
import { loadSignedInTexts } from '../i18n/i18n.ts';
import { loadShellPages, PAGES } from '../pages/index.ts';

// Layouts load lazily too: the sign-in pages never download the navigation, menus and settings drawer, nor the
// signed-in part of the texts, nor the list of the shell's pages, which the shell waits for.
const BlankLayout = lazy(() => import('../layouts/blank-layout.tsx'));
const DefaultLayout = lazy(() =>
  Promise.all([import('../layouts/default-layout.tsx'), loadSignedInTexts(), loadShellPages()]).then(
    ([layout]) => layout,
  ),
);

/**
 * The page's title in the tab. Rendered inside the layout, so that a signed-in page's title is looked up once the
 * layout has loaded the signed-in texts.
 */
function DocumentTitle({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const config = useConfig();
  const title = t(titleKey);
  useEffect(() => {
    document.title = `${title} | ${config.appTitle}`;
  }, [title, config.appTitle]);
  return null;
}

/** The one route of the router: the guard decides, the manifest names the page, the page loads lazily. */
export function GuardedRoute() {
  const location = useLocation();
  const auth = useAuth();
  const config = useConfig();
  // A signed-in user's rules wait for CASL, which the first load leaves out (`auth/ability.ts`): the bar runs meanwhile.
  const decision = auth.abilityReady
    ? guard({
        path: location.pathname.length > 1 ? location.pathname.replace(/\/+$/, '') : location.pathname,
        search: location.search,
        session: auth.state,
        can: (action, subject) => auth.ability.can(action, subject),
        signupEnabled: config.signupEnabled,
        invoiceListEnabled: config.payments.enabled,
      })
    : null;

  const clearSession = decision?.kind === 'redirect' && decision.clearSession;
  useEffect(() => {
    if (clearSession) auth.clear();
  }, [clearSession, auth]);

  if (!decision) return <PageLoading />;
  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  if (decision.kind === 'notFound') {
    const NotFound = PAGES.NotFound;
    const page = (
      <Suspense fallback={<PageLoading />}>
        <DocumentTitle titleKey="pages.notFound.title" />
        <NotFound />
      </Suspense>
    );
    // A signed-in user keeps the shell (with their own area's navigation) to go on from; a visitor gets the blank page.
    return (
      <Suspense fallback={<PageLoading />}>
        {auth.state === 'signedIn' ? (
          <DefaultLayout area={areaOfPath(auth.home)}>{page}</DefaultLayout>
        ) : (
          <BlankLayout>{page}</BlankLayout>
        )}
      </Suspense>
    );
  }
  const Page = PAGES[decision.route.page];
  const page = (
    <Suspense fallback={<PageLoading />}>
      <DocumentTitle titleKey={decision.route.title} />
      <Page key={decision.route.id} />
    </Suspense>
  );
  if (decision.route.layout === 'bare') return page;
  return (
    <Suspense fallback={<PageLoading />}>
      {decision.route.layout === 'blank' ? (
        <BlankLayout wide={decision.route.wide}>{page}</BlankLayout>
      ) : (
        <DefaultLayout>{page}</DefaultLayout>
      )}
    </Suspense>
  );
}
