import {
  Checkbox,
  FormControlLabel,
  FormGroup,
  FormLabel,
  MenuItem,
  Stack,
  Switch,
  TextField,
} from '@mui/material';
import {
  GOOGLE_ISSUER,
  OIDC_AREAS,
  SIGN_IN_PROVIDER_KINDS,
  type SignInProvider,
  signInProviderBodySchema,
} from '@werkwissen/shared';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSaveSignInProvider } from '../../api/sign-in-providers.ts';
import { applyFieldErrors } from '../../components/form.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';

type Values = {
  kind: SignInProvider['kind'];
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  allowedDomains: string;
  areas: SignInProvider['areas'];
  enabled: boolean;
};

const ltr = { htmlInput: { dir: 'ltr' } } as const;

function initial(provider: SignInProvider | null): Values {
  return {
    kind: provider?.kind ?? 'oidc',
    name: provider?.name ?? '',
    issuer: provider?.issuer ?? '',
    clientId: provider?.clientId ?? '',
    clientSecret: '',
    allowedDomains: provider?.allowedDomains.join(', ') ?? '',
    areas: provider?.areas ?? ['user'],
    enabled: provider?.enabled ?? true,
  };
}

/**
 * Adds or edits a sign-in provider: Google (its issuer is fixed) or any OpenID Connect provider by its issuer. The
 * secret is never shown; left empty it keeps the saved one. The server reads the discovery document before saving.
 */
export function SignInProviderDialog({
  provider,
  open,
  onClose,
}: {
  /** The stored provider to edit; null adds one (a provider from the environment is added as a new one). */
  provider: SignInProvider | null;
  open: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Values>(() => initial(provider));
  const [errors, setErrors] = useState<Partial<Record<keyof Values, string>>>({});
  const set = <K extends keyof Values>(key: K, value: Values[K]) =>
    setValues((v) => ({ ...v, [key]: value }));
  const save = useSaveSignInProvider({
    onSuccess: onClose,
    claimError: (error) =>
      applyFieldErrors(error, (field, { message }) => setErrors((e) => ({ ...e, [field]: message })), [
        'name',
        'issuer',
        'clientId',
        'clientSecret',
        'allowedDomains',
      ]),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = signInProviderBodySchema.safeParse({
      ...values,
      issuer: values.kind === 'google' ? GOOGLE_ISSUER : values.issuer,
      clientSecret: values.clientSecret || undefined,
      allowedDomains: values.allowedDomains
        .split(/[\s,;]+/)
        .map((d) => d.trim())
        .filter(Boolean),
    });
    if (!parsed.success) {
      const next: Partial<Record<keyof Values, string>> = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as keyof Values] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    save.mutate({ id: provider?.source === 'settings' ? provider.id : null, body: parsed.data });
  };

  const field = (key: 'name' | 'issuer' | 'clientId' | 'clientSecret' | 'allowedDomains', help?: string) => (
    <TextField
      id={`sign-in-provider-${key}`}
      label={t(`admin.settings.signIn.oidc.fields.${key}`)}
      value={values[key]}
      onChange={(e) => set(key, e.target.value)}
      error={Boolean(errors[key])}
      helperText={errors[key] ? t(errors[key]) : help}
      type={key === 'clientSecret' ? 'password' : 'text'}
      autoComplete="off"
      fullWidth
      slotProps={key === 'name' ? { htmlInput: { dir: 'auto' } } : ltr}
    />
  );

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={t(provider ? 'admin.settings.signIn.oidc.edit' : 'admin.settings.signIn.oidc.add')}
      formId="sign-in-provider-form"
      submitLabel={t('common.save')}
      pending={save.isPending}
    >
      <Stack
        component="form"
        id="sign-in-provider-form"
        noValidate
        onSubmit={submit}
        spacing={4}
        sx={{ pt: 2 }}
      >
        <TextField
          select
          id="sign-in-provider-kind"
          label={t('admin.settings.signIn.oidc.fields.kind')}
          value={values.kind}
          onChange={(e) => set('kind', e.target.value as Values['kind'])}
          fullWidth
        >
          {SIGN_IN_PROVIDER_KINDS.map((kind) => (
            <MenuItem key={kind} value={kind}>
              {t(`admin.settings.signIn.oidc.kinds.${kind}`)}
            </MenuItem>
          ))}
        </TextField>
        {field('name')}
        {values.kind === 'oidc' && field('issuer')}
        {field('clientId')}
        {field(
          'clientSecret',
          provider?.clientSecretSet ? t('admin.settings.signIn.oidc.fields.clientSecretKeep') : undefined,
        )}
        {field('allowedDomains', t('admin.settings.signIn.oidc.fields.allowedDomainsHelp'))}
        <FormGroup>
          <FormLabel component="legend">{t('admin.settings.signIn.oidc.fields.areas')}</FormLabel>
          {OIDC_AREAS.map((area) => (
            <FormControlLabel
              key={area}
              label={t(`admin.settings.signIn.oidc.areas.${area}`)}
              control={
                <Checkbox
                  checked={values.areas.includes(area)}
                  onChange={(e) =>
                    set(
                      'areas',
                      e.target.checked ? [...values.areas, area] : values.areas.filter((a) => a !== area),
                    )
                  }
                />
              }
            />
          ))}
        </FormGroup>
        <FormControlLabel
          label={t('admin.settings.signIn.oidc.fields.enabled')}
          control={<Switch checked={values.enabled} onChange={(e) => set('enabled', e.target.checked)} />}
        />
      </Stack>
    </FormDialog>
  );
}
