import { zodResolver } from '@hookform/resolvers/zod';
import { Stack } from '@mui/material';
import { type CustomerBody, customerBodySchema } from '@werkwissen/shared';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useCreateCustomer } from '../../api/handwerk.ts';
import { applyFieldErrors, InputField } from '../../components/form.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';

const FIELDS = [
  'name',
  'street',
  'postalCode',
  'city',
  'country',
  'email',
  'vatId',
  'buyerReference',
] as const;

/** Adds a customer: the buyer of offers and invoices; the server's field messages show on the fields. */
export function CustomerDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const form = useForm<CustomerBody>({
    resolver: zodResolver(customerBodySchema) as never,
    defaultValues: {
      ...Object.fromEntries(FIELDS.map((f) => [f, ''])),
      country: 'DE',
      phone: '',
    } as CustomerBody,
  });
  const create = useCreateCustomer({
    onSuccess: onClose,
    claimError: (error) => applyFieldErrors(error, form.setError, [...FIELDS]),
  });
  const { errors } = form.formState;
  return (
    <FormDialog
      open
      onClose={onClose}
      title={t('handwerk.newCustomer')}
      formId="customer-form"
      submitLabel={t('handwerk.addCustomer')}
      pending={create.isPending}
    >
      <Stack
        component="form"
        id="customer-form"
        spacing={3}
        noValidate
        sx={{ pt: 2 }}
        onSubmit={form.handleSubmit((body) => create.mutate(body))}
      >
        {FIELDS.map((field, i) => (
          <InputField
            key={field}
            {...form.register(field)}
            id={`customer-${field}`}
            label={t(`handwerk.customer.${field}`)}
            autoFocus={i === 0}
            errorKey={errors[field]?.message}
          />
        ))}
      </Stack>
    </FormDialog>
  );
}
