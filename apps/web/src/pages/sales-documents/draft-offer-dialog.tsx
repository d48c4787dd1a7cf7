import { MenuItem, Stack, TextField } from '@mui/material';
import type { Language } from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCustomerOptions, useDraftOffer } from '../../api/sales-documents.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { DocumentLanguageField } from './document-language-field.tsx';

/**
 * The job in words, the customer and the document's language: the server drafts an offer from the company's price
 * lists, each line citing its passage; the user checks it before issuing.
 */
export function DraftOfferDialog({ onClose }: { onClose(): void }) {
  const { t, i18n } = useTranslation();
  const customers = useCustomerOptions();
  const [customerId, setCustomerId] = useState('');
  const [language, setLanguage] = useState<Language>((i18n.language as Language) ?? 'de');
  const [description, setDescription] = useState('');
  const draft = useDraftOffer({ onSuccess: onClose });
  return (
    <FormDialog
      open
      onClose={onClose}
      title={t('handwerk.draftOffer')}
      intro={t('handwerk.draftIntro')}
      formId="draft-offer-form"
      submitLabel={t('handwerk.draft')}
      pending={draft.isPending}
    >
      <Stack
        component="form"
        id="draft-offer-form"
        spacing={3}
        noValidate
        sx={{ pt: 2 }}
        onSubmit={(e) => {
          e.preventDefault();
          draft.mutate({ customerId, language, description });
        }}
      >
        <TextField
          select
          id="draft-customer"
          label={t('handwerk.customer.label')}
          value={customerId}
          onChange={(e) => setCustomerId(e.target.value)}
        >
          {(customers.data?.items ?? []).map((c) => (
            <MenuItem key={c.id} value={c.id}>
              {c.name}
            </MenuItem>
          ))}
        </TextField>
        <DocumentLanguageField id="draft-language" value={language} onChange={setLanguage} />
        <TextField
          id="draft-description"
          label={t('handwerk.description')}
          placeholder={t('handwerk.descriptionHint')}
          multiline
          minRows={3}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </Stack>
    </FormDialog>
  );
}
