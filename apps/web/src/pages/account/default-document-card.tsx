import { Alert, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { IconFileText, IconTrash, IconUpload } from '@tabler/icons-react';
import type { CompanyBranding } from '@werkwissen/shared';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRemoveDefaultDocument, useUploadDefaultDocument } from '../../api/company-branding.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { errorMessage } from '../../components/form.tsx';
import { useFormat } from '../../components/format.ts';

/**
 * The spec's "default document upload": a file every new division starts with (a copy, processed like an upload).
 * Checked by the server like any upload; a refusal is shown here.
 */
export function DefaultDocumentCard({ branding }: { branding: CompanyBranding }) {
  const { t } = useTranslation();
  const format = useFormat();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
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
          {problem && <Alert severity="error">{problem}</Alert>}
          <Stack direction="row" spacing={3} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <input
              ref={input}
              type="file"
              hidden
              aria-label={t('defaultDocument.choose')}
              data-testid="default-document-input"
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                setProblem(null);
                if (file) upload.mutate(file);
              }}
            />
            <Button
              variant="outlined"
              startIcon={<IconUpload size={18} />}
              disabled={upload.isPending}
              onClick={() => input.current?.click()}
            >
              {t('defaultDocument.choose')}
            </Button>
            {document && (
              <Button color="error" startIcon={<IconTrash size={18} />} onClick={() => setRemoving(true)}>
                {t('defaultDocument.remove')}
              </Button>
            )}
          </Stack>
        </Stack>
        <ConfirmDialog
          open={removing}
          title={t('defaultDocument.removeTitle')}
          text={t('defaultDocument.removeText')}
          confirmLabel={t('defaultDocument.remove')}
          pending={remove.isPending}
          onConfirm={() => remove.mutate(undefined, { onSettled: () => setRemoving(false) })}
          onClose={() => setRemoving(false)}
        />
      </CardContent>
    </Card>
  );
}
