import { Alert, Button, CircularProgress, Stack } from '@mui/material';
import { authContracts } from '@werkwissen/shared';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError, call } from '../../api/http.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { errorMessage } from '../../components/form.tsx';
import { AuthCard } from './auth-card.tsx';

/**
 * `/confirm-email?token=`: the link of an e-mail change, opened from the new address. Moves the account to it and
 * says so; a signed-in session takes the new address at once.
 */
export default function ConfirmEmailPage() {
  const { t } = useTranslation();
  const auth = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (!token) {
      navigate('/token-error', { replace: true });
      return;
    }
    call(authContracts.confirmEmailChange, { body: { token } })
      .then((res) => {
        setDone(res.message);
        if (auth.state === 'signedIn') call(authContracts.me).then(auth.signIn, () => {});
      })
      .catch((error: unknown) => {
        if (
          error instanceof ApiError &&
          (error.code === 'TOKEN_INVALID' || error.code === 'VALIDATION_FAILED')
        )
          navigate('/token-error', { replace: true });
        else setFailure(errorMessage(error, t));
      });
  }, [token, auth, navigate, t]);

  const signedIn = auth.state === 'signedIn';
  return (
    <AuthCard title={t('pages.confirmEmail.heading')}>
      {!done && !failure && <CircularProgress aria-label={t('shell.loading')} />}
      {(done || failure) && (
        <Stack spacing={4}>
          {done && (
            <Alert severity="success" role="status">
              {done}
            </Alert>
          )}
          {failure && <Alert severity="error">{failure}</Alert>}
          <Button component={Link} to={signedIn ? '/redirecting' : '/login'} variant="contained">
            {t(signedIn ? 'pages.verify.continue' : 'pages.verify.toLogin')}
          </Button>
        </Stack>
      )}
    </AuthCard>
  );
}
