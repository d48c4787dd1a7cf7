import { Stack } from '@mui/material';
import { createDataManagerBodySchema, type DataManager, type Language } from '@werkwissen/shared';
import { formatPhone } from '@werkwissen/shared/phone';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/auth-context.tsx';
import { applyFieldErrors, InputField } from '../../components/form.tsx';
import { LanguageSelect } from '../../components/language-select.tsx';
import { formPhoneCountry, formPhoneField } from '../../components/phone-number.ts';
import { useSchemaForm } from '../../components/schema-form.ts';

export interface DataManagerValues {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  language: Language;
  companyName: string;
}

const FIELDS = ['email', 'firstName', 'lastName', 'phone', 'language', 'companyName'] as const;

/**
 * The data manager form of the add dialog and the detail page's edit dialog (the address is fixed once added);
 * `onSave` receives the values, and server errors on fields are shown on them.
 */
export function DataManagerForm({
  dataManager,
  formId,
  onSave,
}: {
  dataManager?: DataManager;
  formId: string;
  onSave(values: DataManagerValues): Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const me = useAuth().session?.userData;
  // A national number is read in the operator's country.
  const country = formPhoneCountry(me?.country, me?.language ?? (i18n.language as Language));
  const schema = createDataManagerBodySchema.extend({ phone: formPhoneField(country) });
  const form = useSchemaForm(schema, {
    defaultValues: {
      email: dataManager?.email ?? '',
      firstName: dataManager?.firstName ?? '',
      lastName: dataManager?.lastName ?? '',
      phone: dataManager?.phone ? formatPhone(dataManager.phone) : '',
      language: dataManager?.language ?? ((i18n.language as Language) || 'de'),
      companyName: dataManager?.companyName ?? '',
    },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await onSave(values);
    } catch (error) {
      if (!applyFieldErrors(error, form.setError, [...FIELDS])) throw error;
    }
  });
  return (
    <Stack component="form" id={formId} spacing={4} noValidate onSubmit={onSubmit} sx={{ pt: 2 }}>
      <InputField
        {...form.register('email')}
        label={t('fields.email')}
        type="email"
        disabled={Boolean(dataManager)}
        errorKey={errors.email?.message}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={4}>
        <InputField
          {...form.register('firstName')}
          label={t('fields.firstName')}
          errorKey={errors.firstName?.message}
        />
        <InputField
          {...form.register('lastName')}
          label={t('fields.lastName')}
          errorKey={errors.lastName?.message}
        />
      </Stack>
      <InputField
        {...form.register('companyName')}
        label={t('admin.users.companyName')}
        errorKey={errors.companyName?.message}
      />
      <InputField
        {...form.register('phone')}
        label={t('fields.whatsappPhoneOptional')}
        type="tel"
        errorKey={errors.phone?.message}
      />
      <LanguageSelect control={form.control} name="language" errorKey={errors.language?.message} />
    </Stack>
  );
}
