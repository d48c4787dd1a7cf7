import {
  Alert,
  Button,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormHelperText,
  MenuItem,
  Link as MuiLink,
  Stack,
  Typography,
} from '@mui/material';
import {
  authContracts,
  normalizeLanguage,
  registerFieldsSchema,
  withPasswordConfirmation,
} from '@werkwissen/shared';
import { COUNTRY_OF_LANGUAGE } from '@werkwissen/shared/phone';
import { getCountries, isSupportedCountry } from 'libphonenumber-js';
import { MuiTelInput, type MuiTelInputCountry } from 'mui-tel-input';
import { useEffect, useMemo, useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { call } from '../../api/http.ts';
import { useConfig } from '../../app/config-context.tsx';
import { useFormBotCheck } from '../../components/bot-check.tsx';
import { flagEmoji } from '../../components/country-flag.ts';
import { applyFieldErrors, errorMessage, PasswordField } from '../../components/form.tsx';
import { FormField } from '../../components/form-field.tsx';
import { LanguageSelect } from '../../components/language-select.tsx';
import { useSchemaForm } from '../../components/schema-form.ts';
import { AuthCard } from './auth-card.tsx';

/**
 * The contract's sign-up fields, but the terms box holds a boolean while it is unticked (the contract takes only
 * `true`): an unticked box gets the same message.
 */
const formSchema = withPasswordConfirmation(
  registerFieldsSchema.extend({
    acceptTerms: z.boolean().refine((accepted) => accepted, { message: 'validation.termsRequired' }),
  }),
);
const FIELDS = [
  'email',
  'firstName',
  'lastName',
  'phone',
  'password',
  'confirmPassword',
  'language',
  'country',
  'companyName',
  'acceptTerms',
];

/** Spec section 7: the lookup answers text starting with 1 and carrying a two-letter country code. */
export async function lookupCountry(url: string): Promise<string> {
  const res = await fetch(url);
  const text = (await res.text()).trim();
  const code = text.startsWith('1') ? /\b([A-Z]{2})\b/.exec(text.slice(1))?.[1] : undefined;
  if (!res.ok || !code) throw new Error('unable to fetch the country');
  return code;
}

/** Sign-up: e-mail and every registration field of the spec, the phone with a country picker. */
export default function RegisterPage() {
  const { t, i18n } = useTranslation();
  const config = useConfig();
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [countryFailed, setCountryFailed] = useState(false);
  const language = normalizeLanguage(i18n.language) ?? 'en';
  const countries = useMemo(() => {
    const names = new Intl.DisplayNames([language], { type: 'region' });
    return getCountries()
      .map((code) => ({ code, name: names.of(code) ?? code }))
      .sort((a, b) => a.name.localeCompare(b.name, language));
  }, [language]);
  const form = useSchemaForm(formSchema, {
    defaultValues: {
      email: '',
      firstName: '',
      lastName: '',
      phone: '',
      password: '',
      confirmPassword: '',
      language,
      country: config.appMode === 'handwerk' ? 'DE' : '',
      companyName: '',
      acceptTerms: false,
    },
  });
  const { errors, isSubmitting } = form.formState;
  const country = form.watch('country');
  // The phone's first country: the one chosen (or looked up) below, else the installation's language's.
  const defaultPhoneCountry = (
    country && isSupportedCountry(country) ? country : COUNTRY_OF_LANGUAGE[config.defaultLanguage]
  ) as MuiTelInputCountry;
  const [phoneCountry, setPhoneCountry] = useState<MuiTelInputCountry | null>(null);
  const shownCountry = phoneCountry ?? defaultPhoneCountry;

  useEffect(() => {
    if (!config.ipCountryLookup.enabled || !config.ipCountryLookup.url) return;
    lookupCountry(config.ipCountryLookup.url)
      .then((code) => form.setValue('country', code))
      .catch(() => setCountryFailed(true));
  }, [config.ipCountryLookup, form]);

  const botCheck = useFormBotCheck();
  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    if (!botCheck.ready) return setFailure(t('auth.botProtection.solveFirst'));
    try {
      const res = await call(authContracts.register, {
        body: {
          ...values,
          companyName: values.companyName || undefined,
          acceptTerms: true,
          ...botCheck.body,
        },
      });
      setDone(res.message);
    } catch (error) {
      botCheck.renew();
      if (!applyFieldErrors(error, form.setError, FIELDS)) setFailure(errorMessage(error, t));
    }
  });

  if (done) {
    return (
      <AuthCard title={t('pages.register.doneTitle')}>
        <Alert severity="success" role="status">
          {t('pages.register.done', { email: form.getValues('email') })}
        </Alert>
        <Button component={Link} to="/login" variant="contained">
          {t('pages.register.toLogin')}
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={t('pages.register.heading')}
      intro={t('pages.register.intro', { appTitle: config.appTitle })}
    >
      <Stack
        component="form"
        spacing={4}
        noValidate
        onSubmit={onSubmit}
        aria-label={t('pages.register.title')}
      >
        {failure && (
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
        )}
        <FormField
          {...form.register('email')}
          label={t('fields.email')}
          type="email"
          autoComplete="email"
          errorKey={errors.email?.message}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={4}>
          <FormField
            {...form.register('firstName')}
            label={t('fields.firstName')}
            autoComplete="given-name"
            errorKey={errors.firstName?.message}
          />
          <FormField
            {...form.register('lastName')}
            label={t('fields.lastName')}
            autoComplete="family-name"
            errorKey={errors.lastName?.message}
          />
        </Stack>
        <FormField
          {...form.register('companyName')}
          label={t('fields.companyNameOptional')}
          autoComplete="organization"
          errorKey={errors.companyName?.message}
        />
        <Controller
          name="phone"
          control={form.control}
          render={({ field }) => (
            <MuiTelInput
              {...field}
              onChange={(value, info) => {
                field.onChange(value);
                setPhoneCountry(info.countryCode);
              }}
              name="telephone"
              label={t('fields.whatsappPhone')}
              defaultCountry={defaultPhoneCountry}
              langOfCountryName={language}
              preferredCountries={['DE', 'AT', 'CH']}
              // The library's flags would be fetched from a third-party CDN: the system's flag emoji instead.
              getFlagElement={(isoCode) => (
                <span aria-hidden style={{ fontSize: 20, lineHeight: 1 }}>
                  {flagEmoji(isoCode)}
                </span>
              )}
              FlagIconButtonProps={{
                'aria-label': t('fields.phoneCountry', {
                  country: countries.find((c) => c.code === shownCountry)?.name ?? shownCountry,
                }),
              }}
              slotProps={{ htmlInput: { maxLength: 25, autoComplete: 'tel' } }}
              error={Boolean(errors.phone)}
              helperText={errors.phone?.message ? t(errors.phone.message) : undefined}
              fullWidth
              dir="ltr"
            />
          )}
        />
        <PasswordField
          {...form.register('password')}
          label={t('fields.password')}
          autoComplete="new-password"
          errorKey={errors.password?.message}
          helperText={t('forms.passwordPolicy')}
        />
        <PasswordField
          {...form.register('confirmPassword')}
          label={t('fields.confirmPassword')}
          autoComplete="new-password"
          errorKey={errors.confirmPassword?.message}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={4}>
          <LanguageSelect control={form.control} name="language" errorKey={errors.language?.message} />
          <Controller
            name="country"
            control={form.control}
            render={({ field }) => (
              <FormField
                {...field}
                select
                label={t('fields.country')}
                errorKey={errors.country?.message}
                helperText={countryFailed ? t('pages.register.countryLookupFailed') : undefined}
              >
                {countries.map((c) => (
                  <MenuItem key={c.code} value={c.code}>
                    {c.name}
                  </MenuItem>
                ))}
              </FormField>
            )}
          />
        </Stack>
        <FormControl error={Boolean(errors.acceptTerms)}>
          <FormControlLabel
            control={<Checkbox {...form.register('acceptTerms')} />}
            label={
              <Typography>
                {t('pages.register.acceptTerms')}{' '}
                {config.privacyUrl && (
                  <MuiLink href={config.privacyUrl} target="_blank" rel="noopener">
                    {t('pages.register.terms')}
                  </MuiLink>
                )}
              </Typography>
            }
          />
          {errors.acceptTerms?.message && <FormHelperText>{t(errors.acceptTerms.message)}</FormHelperText>}
        </FormControl>
        {botCheck.widget}
        <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
          {t('pages.register.submit')}
        </Button>
        <Typography sx={{ textAlign: 'center' }}>
          {t('pages.register.haveAccount')}{' '}
          <MuiLink component={Link} to="/login">
            {t('pages.register.toLogin')}
          </MuiLink>
        </Typography>
      </Stack>
    </AuthCard>
  );
}
