import { MenuItem, Stack, TextField } from '@mui/material';
import { CUSTOMER_KINDS, type Customer, type CustomerBody, customerBodySchema } from '@werkwissen/shared';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useCreateCustomer, useUpdateCustomer } from '../../api/sales-documents.ts';
import { applyFieldErrors, InputField } from '../../components/form.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useSchemaForm } from '../../components/schema-form.ts';

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

/** Adds a customer, or changes one: the buyer of offers and invoices; the server's field messages show on the fields. */
export function CustomerDialog({ customer, onClose }: { customer?: Customer; onClose(): void }) {
  const { t } = useTranslation();
  const form = useSchemaForm(customerBodySchema, {
    defaultValues: customer
      ? ({
          ...Object.fromEntries(FIELDS.map((f) => [f, customer[f]])),
          phone: customer.phone,
          kind: customer.kind,
        } as CustomerBody)
      : ({
          ...Object.fromEntries(FIELDS.map((f) => [f, ''])),
          country: 'DE',
          phone: '',
          kind: 'private',
        } as CustomerBody),
  });
  const callbacks = {
    onSuccess: onClose,
    claimError: (error: unknown) => applyFieldErrors(error, form.setError, [...FIELDS]),
  };
  const create = useCreateCustomer(callbacks);
  const update = useUpdateCustomer(callbacks);
  const save = (body: CustomerBody) =>
    customer ? update.mutate({ customerId: customer.id, body }) : create.mutate(body);
  const { errors } = form.formState;
  return (
    <FormDialog
      open
      onClose={onClose}
      title={t(customer ? 'handwerk.editCustomer' : 'handwerk.newCustomer')}
      formId="customer-form"
      submitLabel={t(customer ? 'common.save' : 'handwerk.addCustomer')}
      pending={create.isPending || update.isPending}
    >
      <Stack
        component="form"
        id="customer-form"
        spacing={3}
        noValidate
        sx={{ pt: 2 }}
        onSubmit={form.handleSubmit(save)}
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
        {/* A private customer is told to keep an invoice for work on a property (§ 14 (4) no. 9 UStG). */}
        <Controller
          name="kind"
          control={form.control}
          render={({ field }) => (
            <TextField
              select
              id="customer-kind"
              label={t('handwerk.customer.kind')}
              value={field.value ?? 'private'}
              onChange={(e) => field.onChange(e.target.value)}
            >
              {CUSTOMER_KINDS.map((kind) => (
                <MenuItem key={kind} value={kind}>
                  {t(`handwerk.customer.kinds.${kind}`)}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      </Stack>
    </FormDialog>
  );
}
