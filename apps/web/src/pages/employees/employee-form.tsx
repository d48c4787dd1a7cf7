import { Autocomplete, Chip, Stack, TextField } from '@mui/material';
import { createEmployeeBodySchema, type Employee, type Language } from '@werkwissen/shared';
import { formatPhone } from '@werkwissen/shared/phone';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useDivisions } from '../../api/divisions.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { applyFieldErrors, InputField } from '../../components/form.tsx';
import { LanguageSelect } from '../../components/language-select.tsx';
import { formPhoneCountry, formPhoneField } from '../../components/phone-number.ts';
import { useSchemaForm } from '../../components/schema-form.ts';

export interface EmployeeValues {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  language: Language;
  divisionIds: string[];
}

/**
 * The employee form of the add dialog and the edit page; `onSave` receives the values, and server errors on fields
 * are shown on them.
 */
export function EmployeeForm({
  employee,
  formId,
  onSave,
}: {
  employee?: Employee;
  formId: string;
  onSave(values: EmployeeValues): Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const divisions = useDivisions();
  const me = useAuth().session?.userData;
  // A national number is read in the data manager's country.
  const country = formPhoneCountry(me?.country, me?.language ?? (i18n.language as Language));
  const schema = createEmployeeBodySchema.extend({ phone: formPhoneField(country) });
  const form = useSchemaForm(schema, {
    defaultValues: {
      email: employee?.email ?? '',
      firstName: employee?.firstName ?? '',
      lastName: employee?.lastName ?? '',
      phone: employee?.phone ? formatPhone(employee.phone) : '',
      language: employee?.language ?? ((i18n.language as Language) || 'de'),
      divisionIds: employee?.divisions.map((d) => d.id) ?? [],
    },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await onSave(values);
    } catch (error) {
      if (
        !applyFieldErrors(error, form.setError, [
          'email',
          'firstName',
          'lastName',
          'phone',
          'language',
          'divisionIds',
        ])
      ) {
        throw error;
      }
    }
  });
  const options = divisions.data?.items ?? [];
  return (
    <Stack component="form" id={formId} spacing={4} noValidate onSubmit={onSubmit} sx={{ pt: 2 }}>
      <InputField
        {...form.register('email')}
        label={t('fields.email')}
        type="email"
        disabled={Boolean(employee)}
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
        {...form.register('phone')}
        label={t('fields.whatsappPhoneOptional')}
        type="tel"
        errorKey={errors.phone?.message}
      />
      <LanguageSelect control={form.control} name="language" errorKey={errors.language?.message} />
      <Controller
        name="divisionIds"
        control={form.control}
        render={({ field }) => (
          <Autocomplete
            multiple
            options={options}
            getOptionLabel={(d) => d.name}
            value={options.filter((d) => field.value.includes(d.id))}
            onChange={(_e, value) => field.onChange(value.map((d) => d.id))}
            renderValue={(value, getItemProps) =>
              value.map((d, index) => (
                <Chip {...getItemProps({ index })} key={d.id} label={d.name} size="small" />
              ))
            }
            renderInput={(params) => (
              <TextField
                {...params}
                label={t('pages.employees.divisions')}
                helperText={errors.divisionIds ? t('errors.NOT_FOUND') : t('pages.employees.divisionsHelp')}
                error={Boolean(errors.divisionIds)}
              />
            )}
          />
        )}
      />
    </Stack>
  );
}
