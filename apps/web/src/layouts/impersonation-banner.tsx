import { Alert, Button } from '@mui/material';
import { IconArrowBackUp } from '@tabler/icons-react';
import { HOME_BY_KIND } from '@werkwissen/shared';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useImpersonation } from '../api/admin-people.ts';
import { ApiError } from '../api/http.ts';
import { useAuth } from '../auth/auth-context.tsx';

/** A name or address in its own direction inside the sentence (a Latin address in Arabic stays in one piece). */
const isolate = (value: string) => `\u2068${value}\u2069`;

/** A whole page load, so that nothing the other session had loaded stays in memory. */
const reloadAt = (path: string) => window.location.assign(path);

/**
 * Shown on every signed-in page while an operator views the product as a user: whom, until when, and the way back
 * to the operator's own session (also taken by itself when the time is up).
 */
export function ImpersonationBanner() {
  const { t, i18n } = useTranslation();
  const auth = useAuth();
  const session = auth.session;
  const end = useImpersonation({
    onSuccess: (me) => {
      auth.signIn(me);
      reloadAt(HOME_BY_KIND[me.userRole]);
    },
    // The operator's own session ended meanwhile: nothing to go back to but the sign-in (the snackbar says why).
    claimError: (error) => {
      if (error instanceof ApiError && (error.status === 401 || error.status === 409)) auth.clear();
      return false;
    },
  });
  const expiresAt = session?.impersonation?.expiresAt;
  const { mutate } = end;
  useEffect(() => {
    if (!expiresAt) return;
    const timer = setTimeout(() => mutate(null), Math.max(0, new Date(expiresAt).getTime() - Date.now()));
    return () => clearTimeout(timer);
  }, [expiresAt, mutate]);
  if (!session?.impersonation || !expiresAt) return null;
  const time = new Intl.DateTimeFormat(i18n.language, { timeStyle: 'short' }).format(new Date(expiresAt));
  return (
    <Alert
      severity="warning"
      variant="filled"
      square
      role="status"
      data-testid="impersonation-banner"
      action={
        <Button
          color="inherit"
          variant="outlined"
          size="small"
          startIcon={<IconArrowBackUp size={18} />}
          disabled={end.isPending}
          onClick={() => end.mutate(null)}
        >
          {t('admin.impersonation.back')}
        </Button>
      }
      sx={{ alignItems: 'center' }}
    >
      {t('admin.impersonation.banner', {
        name: isolate(session.userData.fullName),
        email: isolate(session.userData.email),
      })}{' '}
      {t('admin.impersonation.endsAt', { time })}
    </Alert>
  );
}
