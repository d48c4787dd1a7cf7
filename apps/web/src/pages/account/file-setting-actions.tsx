import { Alert, Button, Stack } from '@mui/material';
import { IconTrash, IconUpload } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';

/**
 * The actions of a company file setting (the logo, the default document): choosing a file uploads it at once, the
 * server's refusal shows above the buttons, and removing asks first. Texts from `<namespace>.choose`, `.remove`,
 * `.removeTitle` and `.removeText`.
 */
export function FileSettingActions({
  namespace,
  accept,
  inputTestId,
  tourTarget,
  primary = false,
  present,
  problem,
  upload,
  remove,
}: {
  namespace: 'companyLogo' | 'defaultDocument';
  accept?: string;
  inputTestId: string;
  /** The guided tour's `data-tour` name of the upload button. */
  tourTarget?: string;
  primary?: boolean;
  /** Whether there is a file to remove. */
  present: boolean;
  problem: string | null;
  upload: { mutate(file: File): void; isPending: boolean };
  remove: { mutate(vars: undefined, options: { onSettled(): void }): void; isPending: boolean };
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [removing, setRemoving] = useState(false);
  return (
    <>
      {problem && <Alert severity="error">{problem}</Alert>}
      <Stack direction="row" spacing={3} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <input
          ref={input}
          type="file"
          hidden
          accept={accept}
          aria-label={t(`${namespace}.choose`)}
          data-testid={inputTestId}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) upload.mutate(file);
          }}
        />
        <Button
          variant={primary ? 'contained' : 'outlined'}
          startIcon={<IconUpload size={18} />}
          disabled={upload.isPending}
          onClick={() => input.current?.click()}
          data-tour={tourTarget}
        >
          {t(`${namespace}.choose`)}
        </Button>
        {present && (
          <Button color="error" startIcon={<IconTrash size={18} />} onClick={() => setRemoving(true)}>
            {t(`${namespace}.remove`)}
          </Button>
        )}
      </Stack>
      <ConfirmDialog
        open={removing}
        title={t(`${namespace}.removeTitle`)}
        text={t(`${namespace}.removeText`)}
        confirmLabel={t(`${namespace}.remove`)}
        pending={remove.isPending}
        onConfirm={() => remove.mutate(undefined, { onSettled: () => setRemoving(false) })}
        onClose={() => setRemoving(false)}
      />
    </>
  );
}
