import { Alert, Button, Link as MuiLink, Stack, Typography } from '@mui/material';
import { areaOfPath } from '@werkwissen/shared';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { bootEndpoints } from '../../api/boot-endpoints.ts';
import { ApiError, call } from '../../api/http.ts';
import { isSecondFactorPending } from '../../api/second-factor-sign-in.ts';
import { useConfig } from '../../app/config-context.tsx';
import { preloadAbilityBuilder } from '../../auth/ability.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { errorMessage, InputField, PasswordField } from '../../components/form.tsx';
import { AuthCard } from './auth-card.tsx';
import { preloadLoginCheck, useLoginForm } from './login-form.ts';
import { ProviderButtons } from './provider-buttons.tsx';

const FORGOT = {
  user: '/forgot-password',
  employee: '/employee/forgot-password',
  admin: '/admin/auth/forgot-password',
  analysis: '/analysis/auth/forgot-password',
};

/** The sign-in page people of this area most often confuse with theirs. */
const OTHER_AREA: Partial<Record<keyof typeof FORGOT, string>> = {
  user: '/employee/login',
  employee: '/login',
};

// Shown only after a right password with a second factor, or after repeated failures: not downloaded with the page.
const SecondFactorStep = lazy(() =>
  import('./second-factor-step.tsx').then((m) => ({ default: m.SecondFactorStep })),
);
const BotCheck = lazy(() => import('../../components/bot-check.tsx').then((m) => ({ default: m.BotCheck })));

/**
 * Starts loading what submitting needs: the form's schema, and CASL for the signed-in user's rules (the router waits
 * for it after a sign-in). The e-mail field has focus from the start, so this begins with the first key.
 */
function preloadForSubmit() {
  preloadLoginCheck();
  preloadAbilityBuilder();
}

/** Sign-in for each area (`/login`, `/employee/login`, `/admin/auth/login`, `/analysis/auth/login`). */
export default function LoginPage() {
  const { t } = useTranslation();
  const config = useConfig();
  const auth = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const area = areaOfPath(location.pathname);
  // A provider's sign-in that failed comes back with its error code.
  const oidcError = params.get('oidcError');
  const [failure, setFailure] = useState<string | null>(
    oidcError ? t([`errors.${oidcError}`, 'pages.login.failed']) : null,
  );
  // Set when another area's sign-in page sent the user here (WRONG_AREA).
  const notice = (location.state as { notice?: string } | null)?.notice ?? null;
  // After too many failed sign-ins to an account the server asks for the bot check (a new challenge per attempt).
  const [botCheckNeeded, setBotCheckNeeded] = useState(false);
  const [botCheck, setBotCheck] = useState<string | null>(null);
  const [challenge, setChallenge] = useState(0);
  // After a new password, or from another area's page, the address comes filled in.
  const email = params.get('email') ?? '';
  const form = useLoginForm({ email, password: '' });
  const { errors, isSubmitting } = form;
  // After a right password, when the account has (or must set up) a second factor.
  // (Also after a provider's sign-in: the server sends the browser here with the step to take.)
  const [secondFactor, setSecondFactor] = useState<'verify' | 'enrol' | null>(() => {
    const step = params.get('secondFactor');
    return step === 'verify' || step === 'enrol' ? step : null;
  });
  useEffect(() => {
    if (secondFactor) preloadAbilityBuilder();
  }, [secondFactor]);

  // Back from a provider, signed in: the session's user is loaded; the guard then goes on to `?to=` or home.
  const signedInElsewhere = params.get('oidc') === 'signedIn';
  const { signIn } = auth;
  // (Not keyed on `t`: signing in changes the language, which would load the user again.)
  const [meFailed, setMeFailed] = useState(false);
  useEffect(() => {
    if (!signedInElsewhere) return;
    preloadAbilityBuilder();
    let current = true;
    call(bootEndpoints.me).then(
      (me) => current && signIn(me),
      () => current && setMeFailed(true),
    );
    return () => {
      current = false;
    };
  }, [signedInElsewhere, signIn]);
  const shownFailure = failure ?? (meFailed ? t('errors.OIDC_SIGN_IN_FAILED') : null);

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const answer = await call(bootEndpoints.login, {
        body: { ...values, area, ...(botCheckNeeded && botCheck ? { botCheck } : {}) },
      });
      if (isSecondFactorPending(answer)) setSecondFactor(answer.secondFactor);
      // The guard now sends the signed-in user on: to the `?to=` return path, or home.
      else auth.signIn(answer);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'WRONG_AREA') {
        const to = `${String(error.details?.loginPath)}?email=${encodeURIComponent(values.email)}`;
        navigate(to, { replace: true, state: { notice: errorMessage(error, t) } });
        return;
      }
      setFailure(errorMessage(error, t, 'pages.login.failed'));
      if (error instanceof ApiError && (botCheckNeeded || error.code === 'BOT_CHECK_REQUIRED')) {
        setBotCheckNeeded(true);
        setBotCheck(null);
        setChallenge((n) => n + 1);
      }
    }
  });

  return (
    <AuthCard
      title={t(`pages.login.heading.${area}`, { appTitle: config.appTitle })}
      intro={t('pages.login.intro')}
    >
      {secondFactor ? (
        <Suspense fallback={null}>
          <SecondFactorStep step={secondFactor} onSignedIn={auth.signIn} />
        </Suspense>
      ) : (
        <Stack
          component="form"
          spacing={4}
          noValidate
          onSubmit={onSubmit}
          onInput={preloadForSubmit}
          aria-label={t('pages.login.title')}
        >
          {notice && !shownFailure && (
            <Alert severity="info" data-testid="login-notice">
              {notice}
            </Alert>
          )}
          {shownFailure && (
            <Alert severity="error" role="alert" data-testid="login-error">
              {shownFailure}
            </Alert>
          )}
          <InputField
            {...form.register('email')}
            label={t('fields.email')}
            type="email"
            autoComplete="email"
            autoFocus={!email}
            errorKey={errors.email}
          />
          <PasswordField
            {...form.register('password')}
            label={t('fields.password')}
            autoComplete="current-password"
            autoFocus={Boolean(email)}
            errorKey={errors.password}
          />
          <MuiLink component={Link} to={FORGOT[area]} sx={{ alignSelf: 'flex-end' }}>
            {t('pages.login.forgot')}
          </MuiLink>
          {botCheckNeeded && (
            <Suspense fallback={null}>
              <BotCheck
                key={challenge}
                provider={config.botProtection.provider}
                siteKey={config.botProtection.siteKey}
                onChange={setBotCheck}
              />
            </Suspense>
          )}
          <Button
            type="submit"
            variant="contained"
            size="large"
            disabled={isSubmitting || (botCheckNeeded && !botCheck)}
          >
            {t('pages.login.submit')}
          </Button>
          <ProviderButtons area={area} to={params.get('to')} />
          {OTHER_AREA[area] && (
            <Typography sx={{ textAlign: 'center' }}>
              {t(`pages.login.otherArea.${area}`)}{' '}
              <MuiLink component={Link} to={OTHER_AREA[area]}>
                {t('pages.login.otherAreaLink')}
              </MuiLink>
            </Typography>
          )}
          {area === 'user' && config.signupEnabled && (
            <Typography sx={{ textAlign: 'center' }}>
              {t('pages.login.noAccount')}{' '}
              <MuiLink component={Link} to="/register">
                {t('pages.login.register')}
              </MuiLink>
            </Typography>
          )}
        </Stack>
      )}
    </AuthCard>
  );
}
