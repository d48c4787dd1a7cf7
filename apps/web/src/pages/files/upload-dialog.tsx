import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  LinearProgress,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Stack,
  Typography,
} from '@mui/material';
import { IconAlertCircle, IconCircleCheck, IconCloudUpload, IconFile, IconX } from '@tabler/icons-react';
import { type StorageUsage, UPLOAD_ACCEPT, UPLOAD_MAX_FILES, type UploadResult } from '@werkwissen/shared';
import { type DragEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUploadFiles } from '../../api/files.ts';
import { ApiError } from '../../api/http.ts';
import { rejectedResults } from '../../api/upload.ts';
import { errorMessage } from '../../components/form.tsx';
import { useFormat } from '../../components/format.ts';

interface Line {
  key: string;
  name: string;
  accepted: boolean;
  text: string;
}

const MB = 1024 * 1024;

/**
 * Adds files to a division: drop them or pick them, see the size limit and the free space, send them with a progress
 * bar, then read one line per file (accepted, or why not).
 */
export default function UploadDialog({
  divisionId,
  divisionName,
  storage,
  onClose,
}: {
  divisionId: string;
  divisionName: string;
  storage?: StorageUsage;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const [selected, setSelected] = useState<File[]>([]);
  const [lines, setLines] = useState<Line[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const counter = useRef(0);
  const sending = progress !== null;

  useEffect(() => () => abort.current?.abort(), []);

  const line = (name: string, accepted: boolean, text: string): Line => ({
    key: `${++counter.current}`,
    name,
    accepted,
    text,
  });

  const add = (files: FileList | File[] | null) => {
    if (!files) return;
    const tooLarge: Line[] = [];
    const fitting: File[] = [];
    for (const file of Array.from(files)) {
      if (storage && file.size > storage.maxUploadBytes) {
        const limitMb = Math.round(storage.maxUploadBytes / MB);
        tooLarge.push(line(file.name, false, t('errors.FILE_TOO_LARGE', { limitMb })));
      } else {
        fitting.push(file);
      }
    }
    setFailure(null);
    setLines((previous) => [...previous, ...tooLarge]);
    setSelected((previous) => [
      ...previous,
      ...fitting.filter((f) => !previous.some((p) => p.name === f.name && p.size === f.size)),
    ]);
  };

  const report = (results: UploadResult['results'], message: string) =>
    results.map((r) =>
      r.accepted
        ? line(r.name, true, message)
        : line(
            r.name,
            false,
            r.error?.message || (r.error ? t(`errors.${r.error.code}`) : t('errors.INTERNAL')),
          ),
    );

  // The server refuses a request with more files as a whole; say so before sending anything.
  const tooMany = selected.length > UPLOAD_MAX_FILES;

  const sent = () => {
    abort.current = null;
    setProgress(null);
  };
  // Every outcome is told here, line by line: nothing goes to the snackbar.
  const upload = useUploadFiles(divisionId, {
    onSuccess: (result) => {
      sent();
      setLines((previous) => [...previous, ...report(result.results, result.message)]);
      setSelected([]);
    },
    claimError: (error) => {
      sent();
      if ((error as Error).name === 'AbortError') return true;
      const results = rejectedResults(error);
      if (results) {
        setLines((previous) => [...previous, ...report(results, t('messages.fileAdded'))]);
        setSelected([]);
      } else {
        setFailure(error instanceof ApiError && error.message ? error.message : errorMessage(error, t));
      }
      return true;
    },
  });

  const submit = () => {
    if (selected.length === 0 || tooMany) return;
    const controller = new AbortController();
    abort.current = controller;
    setFailure(null);
    setProgress(0);
    upload.mutate({
      files: selected,
      signal: controller.signal,
      onProgress: (share) => setProgress(Math.round(share * 100)),
    });
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!sending) add(event.dataTransfer.files);
  };

  const total = selected.reduce((sum, f) => sum + f.size, 0);
  const free = storage ? Math.max(0, storage.limitBytes - storage.usedBytes) : null;

  return (
    <Dialog open onClose={sending ? undefined : onClose} fullWidth maxWidth="sm">
      <DialogTitle>{t('pages.files.upload.title', { division: divisionName })}</DialogTitle>
      <DialogContent>
        <Stack spacing={4}>
          <Box
            data-testid="upload-dropzone"
            onDragOver={(e) => {
              e.preventDefault();
              if (!sending) setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            sx={{
              border: 2,
              borderStyle: 'dashed',
              borderColor: dragging ? 'primary.main' : 'divider',
              bgcolor: dragging ? 'action.hover' : 'transparent',
              borderRadius: 2,
              p: 6,
              textAlign: 'center',
            }}
          >
            <Box sx={{ color: 'text.secondary' }}>
              <IconCloudUpload size={40} stroke={1.5} aria-hidden />
            </Box>
            <Typography sx={{ mt: 2 }}>{t('pages.files.upload.drop')}</Typography>
            <Button variant="contained" component="label" sx={{ mt: 3 }} disabled={sending}>
              {t('pages.files.upload.choose')}
              <input
                hidden
                type="file"
                multiple
                accept={UPLOAD_ACCEPT}
                data-testid="upload-input"
                onChange={(e) => {
                  add(e.target.files);
                  e.target.value = '';
                }}
              />
            </Button>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 3 }}>
              {t('pages.files.upload.formats')}
            </Typography>
            {storage && (
              <Typography variant="body2" color="text.secondary" data-testid="upload-limits">
                {t('pages.files.upload.maxSize', { size: format.size(storage.maxUploadBytes) })}
                {' · '}
                {t('pages.files.upload.free', { size: format.size(free ?? 0) })}
              </Typography>
            )}
          </Box>
          {selected.length > 0 && (
            <Box>
              <Typography variant="subtitle2" component="h3">
                {t('pages.files.upload.selected', {
                  count: selected.length,
                  size: format.size(total),
                })}
              </Typography>
              <List dense>
                {selected.map((file) => (
                  <ListItem
                    key={`${file.name}:${file.size}`}
                    disableGutters
                    secondaryAction={
                      <IconButton
                        edge="end"
                        disabled={sending}
                        aria-label={`${t('pages.files.upload.remove')}: ${file.name}`}
                        onClick={() => setSelected((previous) => previous.filter((f) => f !== file))}
                      >
                        <IconX size={18} />
                      </IconButton>
                    }
                  >
                    <ListItemIcon sx={{ minWidth: 36 }}>
                      <IconFile size={20} aria-hidden />
                    </ListItemIcon>
                    <ListItemText
                      primary={file.name}
                      secondary={format.size(file.size)}
                      slotProps={{ primary: { sx: { wordBreak: 'break-word' } } }}
                    />
                  </ListItem>
                ))}
              </List>
              {tooMany && (
                <Alert severity="warning" data-testid="upload-too-many" sx={{ mb: 2 }}>
                  {t('errors.TOO_MANY_FILES', { max: UPLOAD_MAX_FILES })}
                </Alert>
              )}
              {free !== null && total > free && (
                <Alert severity="warning">
                  {t('errors.QUOTA_EXCEEDED', {
                    freeMb: Math.floor(free / MB),
                    limitMb: Math.round((storage?.limitBytes ?? 0) / MB),
                  })}
                </Alert>
              )}
            </Box>
          )}
          {sending && (
            <Box>
              <Stack direction="row" sx={{ justifyContent: 'space-between', mb: 1 }}>
                <Typography variant="body2">
                  {progress >= 100 ? t('pages.files.upload.checking') : t('pages.files.upload.sending')}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {format.percent(progress)}
                </Typography>
              </Stack>
              <LinearProgress
                variant={progress >= 100 ? 'indeterminate' : 'determinate'}
                value={progress}
                aria-label={t('pages.files.upload.sending')}
              />
            </Box>
          )}
          {failure && (
            <Alert severity="error" data-testid="upload-failure">
              {failure}
            </Alert>
          )}
          <Box aria-live="polite">
            {lines.length > 0 && (
              <List dense aria-label={t('pages.files.upload.results')} data-testid="upload-results">
                {lines.map((l) => (
                  <ListItem key={l.key} disableGutters data-accepted={l.accepted}>
                    <ListItemIcon sx={{ minWidth: 36, color: l.accepted ? 'success.main' : 'error.main' }}>
                      {l.accepted ? (
                        <IconCircleCheck size={20} aria-hidden />
                      ) : (
                        <IconAlertCircle size={20} aria-hidden />
                      )}
                    </ListItemIcon>
                    <ListItemText
                      primary={l.name}
                      secondary={l.text}
                      slotProps={{ primary: { sx: { wordBreak: 'break-word' } } }}
                    />
                  </ListItem>
                ))}
              </List>
            )}
          </Box>
        </Stack>
      </DialogContent>
      <DialogActions>
        {sending ? (
          <Button onClick={() => abort.current?.abort()}>{t('pages.files.upload.abort')}</Button>
        ) : (
          <Button onClick={onClose}>{t('common.close')}</Button>
        )}
        <Button
          variant="contained"
          startIcon={<IconCloudUpload size={18} />}
          disabled={sending || selected.length === 0 || tooMany}
          onClick={submit}
        >
          {t('pages.files.upload.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
