import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { IconTrash, IconUpload } from '@tabler/icons-react';
import { LOGO_MAX_BYTES, LOGO_TYPES, type SystemSettings } from '@werkwissen/shared';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRemoveLogo, useUploadLogo } from '../../api/system-settings.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { errorMessage } from '../../components/form.tsx';

/**
 * The logo: the one in use, a chosen file previewed before it is uploaded, and removing the upload (the built-in logo
 * shows again). Type and size are checked by the server from the content; a refusal is shown here.
 */
export function LogoUpload({ settings, canEdit }: { settings: SystemSettings; canEdit: boolean }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);
  const upload = useUploadLogo({
    onSuccess: () => setFile(null),
    claimError: (error) => {
      setProblem(errorMessage(error, t));
      return true;
    },
  });
  const remove = useRemoveLogo({ onSettled: () => setRemoving(false) });
  const current = settings.logo?.url ?? '/assets/img/logo.png';

  return (
    <Stack spacing={3} sx={{ maxWidth: 640 }}>
      <Typography variant="h6" component="h2">
        {t('admin.settings.logo.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('admin.settings.logo.help', { limitKb: LOGO_MAX_BYTES / 1024 })}
      </Typography>
      <Stack direction="row" spacing={4} sx={{ alignItems: 'center' }}>
        <Box
          component="img"
          src={preview ?? current}
          alt={t(preview ? 'admin.settings.logo.previewAlt' : 'admin.settings.logo.currentAlt')}
          sx={{ width: 100, maxHeight: 100, objectFit: 'contain', border: 1, borderColor: 'divider', p: 1 }}
        />
        {!settings.logo && !preview && (
          <Typography variant="body2" color="text.secondary">
            {t('admin.settings.logo.builtIn')}
          </Typography>
        )}
      </Stack>
      {problem && <Alert severity="error">{problem}</Alert>}
      {canEdit && (
        <Stack direction="row" spacing={3} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <input
            ref={input}
            type="file"
            hidden
            accept={LOGO_TYPES.join(',')}
            aria-label={t('admin.settings.logo.choose')}
            onChange={(e) => {
              setProblem(null);
              setFile(e.target.files?.[0] ?? null);
              e.target.value = '';
            }}
          />
          <Button variant="outlined" onClick={() => input.current?.click()}>
            {t('admin.settings.logo.choose')}
          </Button>
          {file && (
            <Button
              variant="contained"
              startIcon={<IconUpload size={18} />}
              disabled={upload.isPending}
              onClick={() => upload.mutate(file)}
            >
              {t('admin.settings.logo.upload')}
            </Button>
          )}
          {settings.logo && !file && (
            <Button color="error" startIcon={<IconTrash size={18} />} onClick={() => setRemoving(true)}>
              {t('admin.settings.logo.remove')}
            </Button>
          )}
        </Stack>
      )}
      <ConfirmDialog
        open={removing}
        title={t('admin.settings.logo.removeTitle')}
        text={t('admin.settings.logo.removeText')}
        confirmLabel={t('admin.settings.logo.remove')}
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => setRemoving(false)}
      />
    </Stack>
  );
}
