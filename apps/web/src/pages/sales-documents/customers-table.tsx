import { IconButton, Stack, Tooltip, Typography } from '@mui/material';
import { IconEdit, IconTrash } from '@tabler/icons-react';
import type { Customer } from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { customerTable, useDeleteCustomer } from '../../api/sales-documents.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { CustomerDialog } from './customer-dialog.tsx';

/** The company's customers: changed in the customer dialog, deleted after confirmation (one with documents stays). */
export function CustomersTable() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<Customer | null>(null);
  const [deleting, setDeleting] = useState<Customer | null>(null);
  const remove = useDeleteCustomer({ onSettled: () => setDeleting(null) });
  const columns: Column<Customer>[] = [
    { id: 'name', label: t('handwerk.customer.name'), fill: true, minWidth: 160, render: (c) => c.name },
    {
      id: 'city',
      label: t('handwerk.customer.city'),
      render: (c) => [c.postalCode, c.city].filter(Boolean).join(' '),
    },
    { id: 'email', label: t('handwerk.customer.email'), render: (c) => c.email },
    { id: 'documents', label: t('handwerk.documentCount'), align: 'right', render: (c) => c.documentCount },
    {
      id: 'actions',
      label: t('handwerk.actions'),
      render: (c) => (
        <Stack direction="row">
          <Tooltip title={t('handwerk.editCustomer')}>
            <IconButton aria-label={`${t('handwerk.editCustomer')}: ${c.name}`} onClick={() => setEditing(c)}>
              <IconEdit size={18} />
            </IconButton>
          </Tooltip>
          <Tooltip title={t('handwerk.deleteCustomer')}>
            <IconButton
              aria-label={`${t('handwerk.deleteCustomer')}: ${c.name}`}
              onClick={() => setDeleting(c)}
            >
              <IconTrash size={18} />
            </IconButton>
          </Tooltip>
        </Stack>
      ),
    },
  ];
  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h2">
        {t('handwerk.customers')}
      </Typography>
      <DataTable<Customer>
        queryKey={customerTable.queryKey}
        fetchPage={customerTable.fetchPage}
        columns={columns}
        rowKey={(c) => c.id}
        caption={t('handwerk.customers')}
        emptyText={t('handwerk.customersEmpty')}
      />
      {editing && <CustomerDialog customer={editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        title={t('handwerk.deleteCustomer')}
        text={t('handwerk.deleteCustomerText', { name: deleting?.name })}
        confirmLabel={t('handwerk.deleteCustomer')}
        pending={remove.isPending}
        onConfirm={() => remove.mutate(deleting!.id)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
