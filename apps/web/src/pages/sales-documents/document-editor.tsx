import {
  Alert,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  IconButton,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { documentTotals, type SalesDocument, type SalesDocumentLine } from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCustomerOptions, useSalesDocument, useSaveDocument } from '../../api/sales-documents.ts';
import { errorMessage } from '../../components/form.tsx';
import { DocumentLanguageField } from './document-language-field.tsx';

/** A line being edited; `uid` keys its row (lines have no id of their own). */
type Line = SalesDocumentLine & { source?: SalesDocument['lines'][number]['source']; uid: number };
let nextUid = 0;

/** A number typed in the user's way ("64,50" or "64.50"); NaN when it is none. */
const parseNumber = (text: string) => Number(text.replace(',', '.'));

/** What heads a draft: customer, language, title, dates, VAT treatment, terms and notes, as the server stores them. */
type Head = Pick<
  SalesDocument,
  | 'customerId'
  | 'language'
  | 'title'
  | 'notes'
  | 'dueDate'
  | 'serviceDate'
  | 'serviceEndDate'
  | 'validUntil'
  | 'propertyService'
> & {
  issueDate: string | null;
  /** What the body takes: a small business's treatment follows from the company details, not from the draft. */
  taxTreatment: 'standard' | 'reverseCharge';
  /** Skonto as typed: both empty for none. */
  discountPercent: string;
  discountDays: string;
};

/** The cash discount a head asks for: none when both fields are empty, NaN where a field is no number. */
function cashDiscountOf(head: Head) {
  if (head.discountPercent.trim() === '' && head.discountDays.trim() === '') return null;
  return { percent: parseNumber(head.discountPercent), days: parseNumber(head.discountDays) };
}

/** The invoice's dates and terms: service date or period (§ 14 UStG), VAT treatment, property work and Skonto. */
function InvoiceFields({
  head,
  smallBusiness,
  set,
}: {
  head: Head;
  smallBusiness: boolean;
  set(patch: Partial<Head>): void;
}) {
  const { t } = useTranslation();
  const date = (value: string) => (value === '' ? null : value);
  return (
    <>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <TextField
          type="date"
          fullWidth
          id="document-service-date"
          label={t('handwerk.serviceDate')}
          helperText={t('handwerk.serviceDateHint')}
          value={head.serviceDate ?? ''}
          onChange={(e) => set({ serviceDate: date(e.target.value) })}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          type="date"
          fullWidth
          id="document-service-end-date"
          label={t('handwerk.serviceEndDate')}
          value={head.serviceEndDate ?? ''}
          onChange={(e) => set({ serviceEndDate: date(e.target.value) })}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      </Stack>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <TextField
          select
          fullWidth
          id="document-tax-treatment"
          label={t('handwerk.taxTreatment')}
          disabled={smallBusiness}
          value={smallBusiness ? 'smallBusiness' : head.taxTreatment}
          onChange={(e) =>
            set({ taxTreatment: e.target.value === 'reverseCharge' ? 'reverseCharge' : 'standard' })
          }
        >
          {(smallBusiness ? (['smallBusiness'] as const) : (['standard', 'reverseCharge'] as const)).map(
            (k) => (
              <MenuItem key={k} value={k}>
                {t(`handwerk.taxTreatments.${k}`)}
              </MenuItem>
            ),
          )}
        </TextField>
        <TextField
          fullWidth
          label={t('handwerk.cashDiscountPercent')}
          value={head.discountPercent}
          onChange={(e) => set({ discountPercent: e.target.value })}
          slotProps={{ htmlInput: { inputMode: 'decimal' } }}
        />
        <TextField
          fullWidth
          label={t('handwerk.cashDiscountDays')}
          value={head.discountDays}
          onChange={(e) => set({ discountDays: e.target.value })}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />
      </Stack>
      <FormControlLabel
        control={
          <Checkbox
            checked={head.propertyService}
            onChange={(e) => set({ propertyService: e.target.checked })}
          />
        }
        label={t('handwerk.propertyService')}
      />
    </>
  );
}

function HeadFields({
  head,
  document,
  onChange,
}: {
  head: Head;
  document: SalesDocument;
  onChange(h: Head): void;
}) {
  const type = document.type;
  const { t } = useTranslation();
  const customers = useCustomerOptions();
  const set = (patch: Partial<Head>) => onChange({ ...head, ...patch });
  const date = (value: string) => (value === '' ? null : value);
  return (
    <Stack spacing={2} sx={{ mb: 3 }}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <TextField
          select
          fullWidth
          id="document-customer"
          label={t('handwerk.customer.label')}
          value={customers.data ? head.customerId : ''}
          onChange={(e) => set({ customerId: e.target.value })}
        >
          {(customers.data?.items ?? []).map((c) => (
            <MenuItem key={c.id} value={c.id}>
              {c.name}
            </MenuItem>
          ))}
        </TextField>
        <DocumentLanguageField
          id="document-language"
          fullWidth
          value={head.language}
          onChange={(language) => set({ language })}
        />
      </Stack>
      <TextField
        label={t('handwerk.titleField')}
        value={head.title}
        onChange={(e) => set({ title: e.target.value })}
      />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <TextField
          type="date"
          fullWidth
          label={t('documents.date')}
          helperText={t('handwerk.issueDateHint')}
          value={head.issueDate ?? ''}
          onChange={(e) => set({ issueDate: date(e.target.value) })}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        {type === 'invoice' && (
          <TextField
            type="date"
            fullWidth
            label={t('documents.dueDate')}
            value={head.dueDate ?? ''}
            onChange={(e) => set({ dueDate: date(e.target.value) })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        )}
        {type === 'offer' && (
          <TextField
            type="date"
            fullWidth
            id="document-valid-until"
            label={t('handwerk.validUntil')}
            value={head.validUntil ?? ''}
            onChange={(e) => set({ validUntil: date(e.target.value) })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        )}
      </Stack>
      {type === 'invoice' && (
        <InvoiceFields head={head} smallBusiness={document.taxTreatment === 'smallBusiness'} set={set} />
      )}
      <TextField
        multiline
        minRows={2}
        label={t('handwerk.notes')}
        value={head.notes}
        onChange={(e) => set({ notes: e.target.value })}
      />
    </Stack>
  );
}

function LinesEditor({ document, onClose }: { document: SalesDocument; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const [head, setHead] = useState<Head>(() => ({
    customerId: document.customerId,
    language: document.language,
    issueDate: document.issueDate,
    dueDate: document.dueDate,
    serviceDate: document.serviceDate,
    serviceEndDate: document.serviceEndDate,
    validUntil: document.validUntil,
    taxTreatment: document.taxTreatment === 'reverseCharge' ? 'reverseCharge' : 'standard',
    propertyService: document.propertyService,
    discountPercent: document.cashDiscount ? String(document.cashDiscount.percent) : '',
    discountDays: document.cashDiscount ? String(document.cashDiscount.days) : '',
    title: document.title,
    notes: document.notes,
  }));
  const [lines, setLines] = useState<Line[]>(() =>
    document.lines.map(({ netCents: _net, ...line }) => ({ ...line, uid: ++nextUid })),
  );
  const save = useSaveDocument({ onSuccess: onClose });
  const money = (cents: number) =>
    new Intl.NumberFormat(i18n.language, { style: 'currency', currency: 'EUR' }).format(cents / 100);
  // The same arithmetic as the server's: what is shown is what will be stored.
  const valid = lines.every((l) =>
    [l.quantity, l.unitPriceCents, l.discountPercent, l.taxRate].every(Number.isFinite),
  );
  const totals = valid
    ? documentTotals(lines.map((l) => ({ ...l, discountPercent: l.discountPercent ?? 0 })))
    : null;
  const change = (i: number, patch: Partial<Line>) =>
    setLines((all) => all.map((line, j) => (j === i ? { ...line, ...patch } : line)));
  const taxRate = lines[0]?.taxRate ?? 19;

  return (
    <>
      <DialogContent>
        <HeadFields head={head} document={document} onChange={setHead} />
        <Table size="small" aria-label={t('handwerk.lines')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('documents.description')}</TableCell>
              <TableCell>{t('documents.quantity')}</TableCell>
              <TableCell>{t('handwerk.unit')}</TableCell>
              <TableCell>{t('documents.unitPrice')}</TableCell>
              <TableCell>{t('documents.discount')}</TableCell>
              <TableCell>{t('handwerk.taxRate')}</TableCell>
              <TableCell align="right">{t('documents.amount')}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {lines.map((line, i) => (
              <TableRow key={line.uid}>
                <TableCell sx={{ minWidth: 220 }}>
                  <TextField
                    size="small"
                    fullWidth
                    value={line.description}
                    slotProps={{ htmlInput: { 'aria-label': `${t('documents.description')} ${i + 1}` } }}
                    onChange={(e) => change(i, { description: e.target.value })}
                  />
                  {line.source && (
                    <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                      {t('handwerk.source', { file: line.source.fileName, excerpt: line.source.excerpt })}
                    </Typography>
                  )}
                </TableCell>
                {(
                  [
                    ['quantity', line.quantity, (v: number) => ({ quantity: v })],
                    ['unit', line.unit, null],
                    [
                      'unitPrice',
                      line.unitPriceCents / 100,
                      (v: number) => ({ unitPriceCents: Math.round(v * 100) }),
                    ],
                    ['discount', line.discountPercent ?? 0, (v: number) => ({ discountPercent: v })],
                    ['taxRate', line.taxRate, (v: number) => ({ taxRate: v })],
                  ] as const
                ).map(([field, value, toPatch]) => (
                  <TableCell key={field} sx={{ minWidth: 80 }}>
                    <TextField
                      size="small"
                      defaultValue={String(value)}
                      slotProps={{
                        htmlInput: {
                          'aria-label': `${t(field === 'unit' || field === 'taxRate' ? `handwerk.${field}` : `documents.${field}`)} ${i + 1}`,
                          inputMode: field === 'unit' ? 'text' : 'decimal',
                        },
                      }}
                      onChange={(e) =>
                        change(i, toPatch ? toPatch(parseNumber(e.target.value)) : { unit: e.target.value })
                      }
                    />
                  </TableCell>
                ))}
                <TableCell align="right">{totals ? money(totals.lineNetCents[i]!) : '–'}</TableCell>
                <TableCell>
                  <IconButton
                    aria-label={`${t('handwerk.removeLine')} ${i + 1}`}
                    onClick={() => setLines((all) => all.filter((_, j) => j !== i))}
                  >
                    <IconTrash size={18} />
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <Button
          startIcon={<IconPlus size={18} />}
          sx={{ mt: 2 }}
          onClick={() =>
            setLines((all) => [
              ...all,
              {
                description: '',
                quantity: 1,
                unit: '',
                unitPriceCents: 0,
                discountPercent: 0,
                taxRate,
                source: null,
                uid: ++nextUid,
              },
            ])
          }
        >
          {t('handwerk.addLine')}
        </Button>
        {totals && (
          <Stack spacing={1} sx={{ mt: 2, alignItems: 'flex-end' }} data-testid="document-totals">
            <Typography>
              {t('documents.netTotal')}: {money(totals.netCents)}
            </Typography>
            {totals.taxGroups.map((g) => (
              <Typography key={g.taxRate}>
                {t('documents.taxLine', { rate: g.taxRate, net: money(g.netCents) })}: {money(g.taxCents)}
              </Typography>
            ))}
            <Typography sx={{ fontWeight: 'bold' }}>
              {t('documents.grossTotal')}: {money(totals.grossCents)}
            </Typography>
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button
          variant="contained"
          disabled={!valid || save.isPending}
          onClick={() =>
            save.mutate({
              documentId: document.id,
              body: {
                customerId: head.customerId,
                language: head.language,
                title: head.title,
                notes: head.notes,
                issueDate: head.issueDate,
                dueDate: head.dueDate,
                serviceDate: head.serviceDate,
                serviceEndDate: head.serviceEndDate,
                validUntil: head.validUntil,
                taxTreatment: head.taxTreatment,
                propertyService: head.propertyService,
                cashDiscount: cashDiscountOf(head),
                lines: lines.map(({ uid: _uid, ...l }) => ({ ...l, source: l.source ?? null })),
              },
            })
          }
        >
          {t('common.save')}
        </Button>
      </DialogActions>
    </>
  );
}

/**
 * Edits a draft: its customer, language, title, dates and notes, and its lines, whose totals follow each keystroke,
 * computed as the server computes them.
 */
export function DocumentEditor({ documentId, onClose }: { documentId: string; onClose(): void }) {
  const { t } = useTranslation();
  const query = useSalesDocument(documentId);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="lg">
      <DialogTitle>{t('handwerk.edit')}</DialogTitle>
      {query.isError && <Alert severity="error">{errorMessage(query.error, t)}</Alert>}
      {query.data && <LinesEditor document={query.data} onClose={onClose} />}
    </Dialog>
  );
}
