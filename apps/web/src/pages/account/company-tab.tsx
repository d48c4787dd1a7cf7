import {
  Alert,
  Button,
  Card,
  CardContent,
  Checkbox,
  CircularProgress,
  FormControlLabel,
  Grid,
  Stack,
  Typography,
} from '@mui/material';
import { type CompanyDetails, type CompanyDetailsBody, companyDetailsBodySchema } from '@werkwissen/shared';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useCompanyBranding } from '../../api/company-branding.ts';
import { useCompanyDetails, useSaveCompanyDetails } from '../../api/company-details.ts';
import { applyFieldErrors } from '../../components/form.tsx';
import { FormField } from '../../components/form-field.tsx';
import { useSchemaForm } from '../../components/schema-form.ts';
import { CompanyColorCard } from './company-color-card.tsx';
import { CompanyLogoCard } from './company-logo-card.tsx';
import { DefaultDocumentCard } from './default-document-card.tsx';

type TextField = Exclude<keyof CompanyDetailsBody, 'standardTaxRate' | 'smallBusiness'>;

/** The groups of the form, each field with its label key; `ltr` for codes and numbers written left to right. */
const GROUPS: Array<{
  title: string;
  fields: Array<{ name: TextField; label: string; ltr?: boolean; max?: number }>;
}> = [
  {
    title: 'company.details.groups.company',
    fields: [
      { name: 'name', label: 'company.details.fields.name' },
      { name: 'website', label: 'company.details.fields.website', ltr: true },
      { name: 'managingDirector', label: 'company.details.fields.managingDirector' },
    ],
  },
  {
    title: 'company.details.groups.address',
    fields: [
      { name: 'street', label: 'company.details.fields.street' },
      { name: 'postalCode', label: 'company.details.fields.postalCode', ltr: true },
      { name: 'city', label: 'company.details.fields.city' },
      { name: 'country', label: 'fields.countryCode', ltr: true, max: 2 },
    ],
  },
  {
    title: 'company.details.groups.contact',
    fields: [
      { name: 'phone', label: 'company.details.fields.phone', ltr: true },
      { name: 'email', label: 'company.details.fields.email', ltr: true },
    ],
  },
  {
    title: 'company.details.groups.tax',
    fields: [
      { name: 'vatId', label: 'company.details.fields.vatId', ltr: true },
      { name: 'taxNumber', label: 'company.details.fields.taxNumber', ltr: true },
      { name: 'registerNumber', label: 'company.details.fields.registerNumber', ltr: true },
      { name: 'registryCourt', label: 'company.details.fields.registryCourt' },
    ],
  },
  {
    title: 'company.details.groups.bank',
    fields: [
      { name: 'iban', label: 'company.details.fields.iban', ltr: true },
      { name: 'bic', label: 'company.details.fields.bic', ltr: true },
    ],
  },
];
const FIELD_NAMES = [...GROUPS.flatMap((g) => g.fields.map((f) => f.name)), 'standardTaxRate'] as const;

/**
 * Company details (spec: for documents such as offers and invoices), the logo and the default document, for the data
 * manager of the company.
 */
export function CompanyTab() {
  const { t } = useTranslation();
  const details = useCompanyDetails();
  const branding = useCompanyBranding();
  if (!details.data || !branding.data) return <CircularProgress aria-label={t('shell.loading')} />;
  return (
    <Stack spacing={6}>
      <Grid container spacing={6}>
        <Grid size={{ xs: 12, md: 6 }}>
          <CompanyLogoCard branding={branding.data} />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <DefaultDocumentCard branding={branding.data} />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <CompanyColorCard branding={branding.data} />
        </Grid>
      </Grid>
      <CompanyForm details={details.data} />
    </Stack>
  );
}

function CompanyForm({ details }: { details: CompanyDetails }) {
  const { t } = useTranslation();
  const { complete: _complete, missing: _missing, updatedAt: _updatedAt, ...values } = details;
  const form = useSchemaForm(companyDetailsBodySchema, {
    defaultValues: values,
  });
  const { errors } = form.formState;
  const save = useSaveCompanyDetails({
    onSuccess: (saved) => form.reset({ ...saved }),
    claimError: (error) => {
      applyFieldErrors(error, form.setError, [...FIELD_NAMES]);
      return false;
    },
  });
  return (
    <Card>
      <CardContent>
        <Stack
          component="form"
          spacing={6}
          noValidate
          onSubmit={form.handleSubmit((body) => save.mutate(body))}
          aria-label={t('pages.accountSettings.tabs.company')}
        >
          {/* The tour points at the form's start: the whole card is taller than a screen, with no room beside it. */}
          <Typography color="text.secondary" data-tour="company-details">
            {t('company.details.intro')}
          </Typography>
          {!details.complete && (
            <Alert severity="info">
              {t('company.details.incomplete')}
              <ul>
                {details.missing.map((gap) => (
                  <li key={gap}>{t(`company.details.missing.${gap}`)}</li>
                ))}
              </ul>
            </Alert>
          )}
          {GROUPS.map((group) => (
            <Stack key={group.title} spacing={3} component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
              <Typography variant="h6" component="legend" sx={{ mb: 2 }}>
                {t(group.title)}
              </Typography>
              <Grid container spacing={4}>
                {group.fields.map((f) => (
                  <Grid key={f.name} size={{ xs: 12, sm: 6 }}>
                    <FormField
                      {...form.register(f.name)}
                      label={t(f.label)}
                      errorKey={errors[f.name]?.message}
                      slotProps={{ htmlInput: { ...(f.ltr ? { dir: 'ltr' } : {}), maxLength: f.max } }}
                    />
                  </Grid>
                ))}
                {group.title === 'company.details.groups.tax' && (
                  <Grid size={{ xs: 12, sm: 6 }}>
                    <FormField
                      {...form.register('standardTaxRate', { valueAsNumber: true })}
                      type="number"
                      label={t('company.details.fields.standardTaxRate')}
                      errorKey={errors.standardTaxRate?.message}
                      slotProps={{ htmlInput: { dir: 'ltr', min: 0, max: 100, step: 0.01 } }}
                    />
                  </Grid>
                )}
                {group.title === 'company.details.groups.tax' && (
                  <Grid size={12}>
                    <Controller
                      name="smallBusiness"
                      control={form.control}
                      render={({ field }) => (
                        <FormControlLabel
                          control={
                            <Checkbox
                              checked={Boolean(field.value)}
                              onChange={(e) => field.onChange(e.target.checked)}
                            />
                          }
                          label={t('company.details.fields.smallBusiness')}
                        />
                      )}
                    />
                  </Grid>
                )}
              </Grid>
            </Stack>
          ))}
          <Button
            type="submit"
            variant="contained"
            disabled={save.isPending}
            sx={{ alignSelf: 'flex-start' }}
          >
            {t('common.save')}
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}
