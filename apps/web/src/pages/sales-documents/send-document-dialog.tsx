import {
  Alert,
  Box,
  Chip,
  FormControlLabel,
  FormLabel,
  List,
  ListItem,
  ListItemText,
  Radio,
  RadioGroup,
  Stack,
  Typography,
} from '@mui/material';
import {
  type DocumentMail,
  type DocumentMailBody,
  type DocumentMailDraft,
  documentMailBodySchema,
  type SalesDocumentSummary,
} from '@werkwissen/shared';
import { useMemo } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useDocumentMailDraft, useDocumentMails, useSendDocumentMail } from '../../api/sales-documents.ts';
import { applyFieldErrors, errorMessage, InputField } from '../../components/form.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useFormat } from '../../components/format.ts';
import { type SchemaForm, useSchemaForm } from '../../components/schema-form.ts';

const STATUS_COLOR = { queued: 'info', sent: 'success', not_sent: 'warning', failed: 'error' } as const;

/** The mails that took the document to a customer: when, to whom, with what, and whether they left. */
function SentMails({ mails }: { mails: DocumentMail[] }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (mails.length === 0) return null;
  return (
    <Box>
      <Typography variant="subtitle2" component="h3">
        {t('handwerk.send.history')}
      </Typography>
      <List dense aria-label={t('handwerk.send.history')}>
        {mails.map((m) => (
          <ListItem
            key={m.id}
            disableGutters
            secondaryAction={
              <Chip
                size="small"
                color={STATUS_COLOR[m.status]}
                label={t(`handwerk.send.status.${m.status}`)}
              />
            }
          >
            <ListItemText
              primary={
                <Box component="span" sx={{ direction: 'ltr', unicodeBidi: 'isolate' }}>
                  {m.to}
                </Box>
              }
              secondary={`${format.dateTime(m.sentAt ?? m.createdAt)} · ${m.attachments.join(', ')}`}
            />
          </ListItem>
        ))}
      </List>
    </Box>
  );
}

function SendForm({
  draft,
  form,
  onSubmit,
}: {
  draft: DocumentMailDraft;
  form: SchemaForm<typeof documentMailBodySchema>;
  onSubmit(body: DocumentMailBody): void;
}) {
  const { t } = useTranslation();
  const { errors } = form.formState;
  return (
    <Stack
      component="form"
      id="send-document-form"
      spacing={3}
      noValidate
      sx={{ pt: 2 }}
      onSubmit={form.handleSubmit(onSubmit)}
    >
      <InputField
        {...form.register('to')}
        id="send-to"
        type="email"
        label={t('handwerk.send.to')}
        autoFocus
        errorKey={errors.to?.message}
      />
      <InputField
        {...form.register('subject')}
        id="send-subject"
        label={t('handwerk.send.subject')}
        errorKey={errors.subject?.message}
      />
      <InputField
        {...form.register('message')}
        id="send-message"
        label={t('handwerk.send.message')}
        multiline
        minRows={6}
        errorKey={errors.message?.message}
        helperText={
          draft.replyTo ? t('handwerk.send.replyTo', { email: draft.replyTo }) : t('handwerk.send.noReplyTo')
        }
      />
      <Controller
        control={form.control}
        name="attach"
        render={({ field }) => (
          <Box>
            <FormLabel id="send-attach-label">{t('handwerk.send.attach')}</FormLabel>
            {/* Controlled from the first render: the draft's values arrive with the form's reset. */}
            <RadioGroup aria-labelledby="send-attach-label" {...field} value={field.value ?? null}>
              {draft.attachments.map((a) => (
                <FormControlLabel
                  key={a}
                  value={a}
                  control={<Radio />}
                  label={t(`handwerk.send.attachments.${a}`)}
                />
              ))}
            </RadioGroup>
          </Box>
        )}
      />
    </Stack>
  );
}

/** The form's start: the draft as the server wrote it; an invoice goes with its Factur-X PDF unless changed. */
const startValues = (draft: DocumentMailDraft): DocumentMailBody => ({
  to: draft.to,
  subject: draft.subject,
  message: draft.message,
  attach: draft.attachments.includes('facturX') ? 'facturX' : 'pdf',
});

/**
 * Sends an issued document to the customer by e-mail: the address, subject and text start in the document's language
 * and can be changed; the PDF (for an invoice also its e-invoice) is attached; below, the mails sent so far.
 */
export function SendDocumentDialog({
  document: d,
  onClose,
}: {
  document: SalesDocumentSummary;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const draft = useDocumentMailDraft(d.id);
  const mails = useDocumentMails(d.id);
  const values = useMemo(() => (draft.data ? startValues(draft.data) : undefined), [draft.data]);
  const form = useSchemaForm(documentMailBodySchema, { values });
  const send = useSendDocumentMail({
    onSuccess: onClose,
    claimError: (error) => applyFieldErrors(error, form.setError, ['to', 'subject', 'message', 'attach']),
  });
  return (
    <FormDialog
      open
      onClose={onClose}
      title={t('handwerk.send.title', { type: t(`documents.type.${d.type}`), number: d.number })}
      formId="send-document-form"
      submitLabel={t('handwerk.send.submit')}
      pending={!draft.data || send.isPending}
    >
      {draft.isError && <Alert severity="error">{errorMessage(draft.error, t)}</Alert>}
      {draft.data && (
        <SendForm
          draft={draft.data}
          form={form}
          onSubmit={(body) => send.mutate({ documentId: d.id, body })}
        />
      )}
      <SentMails mails={mails.data?.items ?? []} />
    </FormDialog>
  );
}
