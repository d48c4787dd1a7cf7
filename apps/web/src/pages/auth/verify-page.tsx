import { Alert, Button, CircularProgress, Stack } from '@mui/material';
import { authContracts } from '@werkwissen/shared';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError, call } from '../../api/http.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { errorMessage } from '../../components/form.tsx';
import { useSnackbar } from '../../components/snackbar.tsx';
import { AuthCard } from './auth-card.tsx';

/** `/verify?token=`: confirms the address from the mail link; without a token, offers a new link. */
export default function VerifyPage() {
  const { t } = useTranslation();
  const auth = useAuth();
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [state, setState] = useState<'working' | 'done' | 'idle'>(token ? 'working' : 'idle');
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    call(authContracts.verifyEmail, { body: { token } })
      .then(() => {
        setState('done');
        if (auth.state === 'signedIn') call(authContracts.me).then(auth.signIn, () => {});
      })
      .catch((error: unknown) => {
        if (
          error instanceof ApiError &&
          (error.code === 'TOKEN_INVALID' || error.code === 'VALIDATION_FAILED')
        ) {
          navigate('/token-error', { replace: true });
        } else {
          setFailure(errorMessage(error, t));
          setState('idle');
        }
      });
  }, [token, auth, navigate, t]);

  const resend = async () => {
    try {
      const res = await call(authContracts.resendVerification);
      snackbar(res.message);
    } catch (error) {
      snackbar(errorMessage(error, t), 'error');
    }
  };

  return (
    <AuthCard title={t('pages.verify.heading')}>
      {state === 'working' && <CircularProgress aria-label={t('shell.loading')} />}
      {state === 'done' && (
        <Stack spacing={4}>
          <Alert severity="success" role="status">
            {t('messages.emailVerified')}
          </Alert>
          <Button
            component={Link}
            to={auth.state === 'signedIn' ? '/redirecting' : '/login'}
            variant="contained"
          >
            {t(auth.state === 'signedIn' ? 'pages.verify.continue' : 'pages.verify.toLogin')}
          </Button>
        </Stack>
      )}
      {state === 'idle' && (
        <Stack spacing={4}>
          {failure && <Alert severity="error">{failure}</Alert>}
          <Alert severity="info">{t('pages.verify.checkInbox')}</Alert>
          {auth.state === 'signedIn' ? (
            <Button variant="contained" onClick={() => void resend()}>
              {t('pages.verify.resend')}
            </Button>
          ) : (
            <Button component={Link} to="/login" variant="contained">
              {t('pages.verify.toLogin')}
            </Button>
          )}
        </Stack>
      )}
    </AuthCard>
  );
}
