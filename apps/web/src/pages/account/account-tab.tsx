import { Alert, Button, Card, CardContent, Grid, Stack } from '@mui/material';
import { updateMeBodySchema } from '@werkwissen/shared';
import { formatPhone } from '@werkwissen/shared/phone';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useUpdateAccount } from '../../api/account.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { applyFieldErrors } from '../../components/form.tsx';
import { FormField } from '../../components/form-field.tsx';
import { LanguageSelect } from '../../components/language-select.tsx';
import { formPhoneCountry, formPhoneField } from '../../components/phone-number.ts';
import { useSchemaForm } from '../../components/schema-form.ts';

/** Account details and interface language of the signed-in user. */
export function AccountTab() {
  const { t } = useTranslation();
  const auth = useAuth();
  const user = auth.session!.userData;
  // A national number is read in the user's country.
  const schema = updateMeBodySchema.extend({
    phone: formPhoneField(formPhoneCountry(user.country, user.language)),
    country: z.string().trim(),
  });
  const form = useSchemaForm(schema, {
    defaultValues: {
      firstName: user.firstName,
      lastName: user.lastName,
      phone: user.phone ? formatPhone(user.phone) : '',
      language: user.language,
      country: user.country ?? '',
    },
  });
  const { errors } = form.formState;
  // Field errors go on their fields; the snackbar says that saving failed.
  const save = useUpdateAccount({
    claimError: (error) => {
      applyFieldErrors(error, form.setError, ['firstName', 'lastName', 'phone', 'language', 'country']);
      return false;
    },
  });
  const impersonated = Boolean(auth.session!.impersonation);
  // The phone stays as it is while an operator views as the user: it is not sent at all.
  const onSubmit = form.handleSubmit(({ phone, ...values }) =>
    save.mutate({
      ...values,
      ...(impersonated ? {} : { phone: phone || null }),
      country: values.country || null,
    }),
  );
  return (
    <Card>
      <CardContent>
        <Stack
          component="form"
          spacing={4}
          noValidate
          onSubmit={onSubmit}
          aria-label={t('pages.accountSettings.tabs.account')}
        >
          {!user.emailVerified && (
            <Alert severity="warning">{t('pages.accountSettings.unverified', { email: user.email })}</Alert>
          )}
          <Grid container spacing={4}>
            <Grid size={{ xs: 12, sm: 6 }}>
              <FormField
                {...form.register('firstName')}
                label={t('fields.firstName')}
                errorKey={errors.firstName?.message}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <FormField
                {...form.register('lastName')}
                label={t('fields.lastName')}
                errorKey={errors.lastName?.message}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <FormField value={user.email} label={t('fields.email')} disabled />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <FormField
                {...form.register('phone')}
                label={t('fields.whatsappPhone')}
                type="tel"
                // A company's user is answered as themselves when they write from this number, once confirmed;
                // an operator viewing as the user cannot change it (the server refuses it too).
                disabled={impersonated}
                helperText={
                  impersonated
                    ? t('whatsapp.phone.impersonating')
                    : user.companyId
                      ? t('whatsapp.help.phone')
                      : undefined
                }
                errorKey={errors.phone?.message}
                slotProps={{ htmlInput: { dir: 'ltr', maxLength: 25 } }}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <LanguageSelect control={form.control} name="language" errorKey={errors.language?.message} />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <FormField
                {...form.register('country')}
                label={t('fields.countryCode')}
                errorKey={errors.country?.message}
                slotProps={{ htmlInput: { maxLength: 2 } }}
              />
            </Grid>
          </Grid>
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
