import { Card, CardContent, Stack, Typography } from '@mui/material';
import { IconFileText } from '@tabler/icons-react';
import type { CompanyBranding } from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRemoveDefaultDocument, useUploadDefaultDocument } from '../../api/company-branding.ts';
import { errorMessage } from '../../components/form.tsx';
import { useFormat } from '../../components/format.ts';
import { FileSettingActions } from './file-setting-actions.tsx';

/**
 * The spec's "default document upload": a file every new division starts with (a copy, processed like an upload).
 * Checked by the server like any upload; a refusal is shown here.
 */
export function DefaultDocumentCard({ branding }: { branding: CompanyBranding }) {
  const { t } = useTranslation();
  const format = useFormat();
  const [problem, setProblem] = useState<string | null>(null);
  const upload = useUploadDefaultDocument({
    claimError: (error) => {
      setProblem(errorMessage(error, t));
      return true;
    },
  });
  const remove = useRemoveDefaultDocument();
  const document = branding.defaultDocument;
  return (
    <Card>
      <CardContent>
        <Stack spacing={3}>
          <Typography variant="h6" component="h2">
            {t('defaultDocument.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('defaultDocument.hint')}
          </Typography>
          {document ? (
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <IconFileText size={20} aria-hidden />
              <Typography dir="auto" sx={{ wordBreak: 'break-word' }}>
                {document.name}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {format.size(document.sizeBytes)}
              </Typography>
            </Stack>
          ) : (
            <Typography variant="body2" color="text.secondary">
              {t('defaultDocument.none')}
            </Typography>
          )}
          <FileSettingActions
            namespace="defaultDocument"
            inputTestId="default-document-input"
            present={Boolean(branding.defaultDocument)}
            problem={problem}
            upload={{
              mutate: (file) => {
                setProblem(null);
                upload.mutate(file);
              },
              isPending: upload.isPending,
            }}
            remove={remove}
          />
        </Stack>
      </CardContent>
    </Card>
  );
}
