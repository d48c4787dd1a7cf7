import { Button, IconButton, MenuItem, Stack, TextField, Tooltip } from '@mui/material';
import {
  IconCash,
  IconCircleCheck,
  IconEdit,
  IconFileDownload,
  IconMail,
  IconPlus,
  IconReceiptRefund,
  IconSend,
  IconSparkles,
  IconTransform,
  IconTrash,
} from '@tabler/icons-react';
import {
  CONVERSIONS,
  INVOICE_KINDS,
  type InvoiceKind,
  type Language,
  type SalesDocumentSummary,
  type SalesDocumentType,
} from '@werkwissen/shared';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  salesDocumentPdfUrl,
  salesDocumentTable,
  useConvertDocument,
  useDeleteDocument,
  useFinaliseDocument,
  useSetDocumentStatus,
} from '../../api/sales-documents.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { CustomerDialog } from './customer-dialog.tsx';
import { CustomersTable } from './customers-table.tsx';
import { DocumentEditor } from './document-editor.tsx';
import { DocumentLanguageField } from './document-language-field.tsx';
import { DownloadLink } from './download-link.tsx';
import { DraftOfferDialog } from './draft-offer-dialog.tsx';
import { EInvoiceDownloads } from './e-invoice-downloads.tsx';
import { SendDocumentDialog } from './send-document-dialog.tsx';

/**
 * Turns an offer or order confirmation into an invoice in a chosen language (a new draft): a whole invoice, a
 * down-payment invoice of a share of the net amount, or the final invoice that deducts the paid down payments.
 */
function InvoiceDialog({ document, onClose }: { document: SalesDocumentSummary; onClose(): void }) {
  const { t } = useTranslation();
  const [language, setLanguage] = useState<Language>(document.language);
  const [invoiceKind, setInvoiceKind] = useState<InvoiceKind>('standard');
  const [percent, setPercent] = useState('30');
  const convert = useConvertDocument();
  const downPaymentPercent = Number(percent.replace(',', '.'));
  return (
    <FormDialog
      open
      onClose={onClose}
      title={t('handwerk.toInvoice')}
      formId="invoice-form"
      submitLabel={t('handwerk.toInvoice')}
      pending={convert.isPending}
      maxWidth="xs"
    >
      <Stack
        component="form"
        id="invoice-form"
        spacing={3}
        sx={{ pt: 2 }}
        onSubmit={(e) => {
          e.preventDefault();
          convert.mutate(
            {
              documentId: document.id,
              type: 'invoice',
              language,
              invoiceKind,
              ...(invoiceKind === 'downPayment' ? { downPaymentPercent } : {}),
            },
            { onSuccess: onClose },
          );
        }}
      >
        <DocumentLanguageField id="invoice-language" value={language} onChange={setLanguage} />
        <TextField
          select
          id="invoice-kind"
          label={t('handwerk.invoiceKind')}
          value={invoiceKind}
          onChange={(e) => setInvoiceKind(e.target.value as InvoiceKind)}
          helperText={invoiceKind === 'final' ? t('handwerk.finalHint') : undefined}
        >
          {INVOICE_KINDS.map((kind) => (
            <MenuItem key={kind} value={kind}>
              {kind === 'standard' ? t('documents.type.invoice') : t(`documents.kind.${kind}`)}
            </MenuItem>
          ))}
        </TextField>
        {invoiceKind === 'downPayment' && (
          <TextField
            id="invoice-down-payment-percent"
            label={t('handwerk.downPaymentPercent')}
            value={percent}
            onChange={(e) => setPercent(e.target.value)}
            slotProps={{ htmlInput: { inputMode: 'decimal' } }}
          />
        )}
      </Stack>
    </FormDialog>
  );
}

/** Issued and not yet settled: `issued`, `sent`, or an invoice past its due date (`overdue`). */
const issued = (d: SalesDocumentSummary) =>
  d.status === 'issued' || d.status === 'sent' || d.status === 'overdue';

/** The type as shown: a down-payment or final invoice by its kind. */
const typeKey = (d: SalesDocumentSummary) =>
  d.type === 'invoice' && d.invoiceKind !== 'standard'
    ? `documents.kind.${d.invoiceKind}`
    : `documents.type.${d.type}`;

/**
 * The company's offers, order confirmations, invoices and credit notes (or those of one type), with what each can
 * become next: edited, issued, accepted, paid, turned into an invoice or credit note, downloaded, or deleted as draft.
 */
export function DocumentsTable({
  type,
  caption,
  actions,
}: {
  type?: SalesDocumentType;
  caption: string;
  actions?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const table = salesDocumentTable(type);
  const [toInvoice, setToInvoice] = useState<SalesDocumentSummary | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [sending, setSending] = useState<SalesDocumentSummary | null>(null);
  const finalise = useFinaliseDocument();
  const setStatus = useSetDocumentStatus();
  const convert = useConvertDocument();
  const [deleting, setDeleting] = useState<SalesDocumentSummary | null>(null);
  const remove = useDeleteDocument({ onSettled: () => setDeleting(null) });
  const money = (cents: number) =>
    new Intl.NumberFormat(i18n.language, { style: 'currency', currency: 'EUR' }).format(cents / 100);

  const columns: Column<SalesDocumentSummary>[] = [
    { id: 'number', label: t('documents.number'), render: (d) => d.number ?? t('handwerk.status.draft') },
    { id: 'type', label: t('handwerk.type'), render: (d) => t(typeKey(d)) },
    {
      id: 'customer',
      label: t('handwerk.customer.label'),
      fill: true,
      minWidth: 160,
      render: (d) => d.customerName,
    },
    { id: 'status', label: t('handwerk.statusLabel'), render: (d) => t(`handwerk.status.${d.status}`) },
    { id: 'gross', label: t('documents.grossTotal'), align: 'right', render: (d) => money(d.grossCents) },
    {
      id: 'actions',
      label: t('handwerk.actions'),
      render: (d) => (
        <Stack direction="row">
          {d.status === 'draft' && (
            <Tooltip title={t('handwerk.edit')}>
              <IconButton aria-label={t('handwerk.edit')} onClick={() => setEditing(d.id)}>
                <IconEdit size={18} />
              </IconButton>
            </Tooltip>
          )}
          {d.status === 'draft' && (
            <Tooltip title={t('handwerk.finalise')}>
              <IconButton aria-label={t('handwerk.finalise')} onClick={() => finalise.mutate(d.id)}>
                <IconSend size={18} />
              </IconButton>
            </Tooltip>
          )}
          {d.status === 'draft' && (
            <Tooltip title={t('handwerk.deleteDraft')}>
              <IconButton aria-label={t('handwerk.deleteDraft')} onClick={() => setDeleting(d)}>
                <IconTrash size={18} />
              </IconButton>
            </Tooltip>
          )}
          {d.number && (
            <Tooltip title={t('handwerk.send.action')}>
              <IconButton aria-label={t('handwerk.send.action')} onClick={() => setSending(d)}>
                <IconMail size={18} />
              </IconButton>
            </Tooltip>
          )}
          {issued(d) && d.type !== 'invoice' && d.type !== 'creditNote' && (
            <Tooltip title={t('handwerk.markAccepted')}>
              <IconButton
                aria-label={t('handwerk.markAccepted')}
                onClick={() => setStatus.mutate({ documentId: d.id, status: 'accepted' })}
              >
                <IconCircleCheck size={18} />
              </IconButton>
            </Tooltip>
          )}
          {issued(d) && d.type === 'invoice' && d.amountDueCents > 0 && (
            <Tooltip title={t('handwerk.markPaid')}>
              <IconButton
                aria-label={t('handwerk.markPaid')}
                onClick={() => setStatus.mutate({ documentId: d.id, status: 'paid' })}
              >
                <IconCash size={18} />
              </IconButton>
            </Tooltip>
          )}
          {d.status !== 'draft' && d.status !== 'cancelled' && CONVERSIONS[d.type].includes('creditNote') && (
            <Tooltip title={t('handwerk.creditNote')}>
              <IconButton
                aria-label={t('handwerk.creditNote')}
                onClick={() => convert.mutate({ documentId: d.id, type: 'creditNote' })}
              >
                <IconReceiptRefund size={18} />
              </IconButton>
            </Tooltip>
          )}
          {CONVERSIONS[d.type].includes('invoice') && (
            <Tooltip title={t('handwerk.toInvoice')}>
              <IconButton aria-label={t('handwerk.toInvoice')} onClick={() => setToInvoice(d)}>
                <IconTransform size={18} />
              </IconButton>
            </Tooltip>
          )}
          <DownloadLink
            label={t('handwerk.downloadPdf')}
            href={salesDocumentPdfUrl(d.id)}
            icon={<IconFileDownload size={18} />}
          />
          <EInvoiceDownloads document={d} />
        </Stack>
      ),
    },
  ];

  return (
    <>
      <DataTable
        queryKey={table.queryKey}
        fetchPage={table.fetchPage}
        columns={columns}
        rowKey={(d) => d.id}
        caption={caption}
        emptyText={t('handwerk.empty')}
        actions={actions}
      />
      {editing && <DocumentEditor documentId={editing} onClose={() => setEditing(null)} />}
      {sending && <SendDocumentDialog document={sending} onClose={() => setSending(null)} />}
      {toInvoice && <InvoiceDialog document={toInvoice} onClose={() => setToInvoice(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        title={t('handwerk.deleteDraft')}
        text={t('handwerk.deleteDraftText', { customer: deleting?.customerName })}
        confirmLabel={t('handwerk.deleteDraft')}
        pending={remove.isPending}
        onConfirm={() => remove.mutate(deleting!.id)}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}

/** /handwerk: the company's documents, drafting from price lists, and its customers. */
export default function SalesDocumentsPage() {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<'customer' | 'draft' | null>(null);
  return (
    <Stack spacing={4}>
      <PageHeader title={t('handwerk.title')} />
      <DocumentsTable
        caption={t('handwerk.title')}
        actions={
          <Stack direction="row" spacing={2}>
            <Button
              variant="outlined"
              startIcon={<IconPlus size={18} />}
              onClick={() => setDialog('customer')}
            >
              {t('handwerk.newCustomer')}
            </Button>
            <Button
              variant="contained"
              startIcon={<IconSparkles size={18} />}
              onClick={() => setDialog('draft')}
            >
              {t('handwerk.draftOffer')}
            </Button>
          </Stack>
        }
      />
      <CustomersTable />
      {dialog === 'customer' && <CustomerDialog onClose={() => setDialog(null)} />}
      {dialog === 'draft' && <DraftOfferDialog onClose={() => setDialog(null)} />}
    </Stack>
  );
}
