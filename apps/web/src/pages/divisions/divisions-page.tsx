import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Grid,
  IconButton,
  LinearProgress,
  Skeleton,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { IconEdit, IconFiles, IconFolder, IconPlus, IconTrash, IconUpload } from '@tabler/icons-react';
import type { Division } from '@werkwissen/shared';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  useCreateDivision,
  useDeleteDivision,
  useDivisions,
  useRenameDivision,
} from '../../api/divisions.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { errorMessage } from '../../components/form.tsx';
import { useFormat } from '../../components/format.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { usePlanRoom } from '../../components/plan-limit-note.tsx';

const UploadDialog = lazy(() => import('../files/upload-dialog.tsx'));

type Editing = { mode: 'add' } | { mode: 'rename'; division: Division };

/**
 * The company's divisions: add, rename, delete (with confirmation), the files and size of each, the storage used,
 * and uploads into a division. Searching them has its own page in the navigation (`/search`).
 */
export default function DivisionsPage() {
  const { t } = useTranslation();
  const query = useDivisions();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Division | null>(null);
  const [uploading, setUploading] = useState<Division | null>(null);
  const format = useFormat();
  // A refused name is said under the field, not in the snackbar.
  const nameCallbacks = {
    onSuccess: () => setEditing(null),
    claimError: (error: unknown) => {
      setNameError(errorMessage(error, t));
      return true;
    },
  };
  const create = useCreateDivision(nameCallbacks);
  const rename = useRenameDivision(nameCallbacks);
  const remove = useDeleteDivision({ onSettled: () => setDeleting(null) });

  const open = (next: Editing) => {
    setEditing(next);
    setName(next.mode === 'rename' ? next.division.name : '');
    setNameError(null);
  };

  const save = () => {
    if (!editing) return;
    if (editing.mode === 'add') create.mutate(name.trim());
    else rename.mutate({ divisionId: editing.division.id, name: name.trim() });
  };

  const items = query.data?.items;
  const storage = query.data?.storage;
  const room = usePlanRoom('divisions');
  const usedShare = storage ? Math.min(100, (storage.usedBytes / Math.max(1, storage.limitBytes)) * 100) : 0;
  return (
    <Stack spacing={6}>
      <Stack
        direction="row"
        sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 3 }}
      >
        <PageHeader title={t('pages.divisions.title')} />
        <Button
          variant="contained"
          startIcon={<IconPlus size={18} />}
          onClick={() => open({ mode: 'add' })}
          disabled={room.full}
          data-tour="documents"
        >
          {t('pages.divisions.add')}
        </Button>
      </Stack>
      {room.note}
      {query.isError && <Alert severity="error">{errorMessage(query.error, t)}</Alert>}
      {storage && (
        <Card data-testid="storage-card">
          <CardContent>
            <Typography variant="overline" color="text.secondary" component="h2">
              {t('pages.divisions.storage')}
            </Typography>
            <Typography sx={{ mb: 2 }}>
              {t('pages.divisions.storageUsed', {
                used: format.size(storage.usedBytes),
                limit: format.size(storage.limitBytes),
              })}
            </Typography>
            <LinearProgress
              variant="determinate"
              value={usedShare}
              color={usedShare >= 90 ? 'warning' : 'primary'}
              aria-label={t('pages.divisions.storage')}
              sx={{ height: 8, borderRadius: 4 }}
            />
            {usedShare >= 90 && (
              <Alert severity="warning" sx={{ mt: 3 }}>
                {t('pages.divisions.storageAlmostFull')}
              </Alert>
            )}
          </CardContent>
        </Card>
      )}
      {items?.length === 0 && (
        <Card>
          <CardContent sx={{ textAlign: 'center', py: 10 }}>
            <Typography gutterBottom>{t('pages.divisions.empty')}</Typography>
            <Button
              variant="outlined"
              startIcon={<IconPlus size={18} />}
              onClick={() => open({ mode: 'add' })}
            >
              {t('pages.divisions.add')}
            </Button>
          </CardContent>
        </Card>
      )}
      <Grid container spacing={6}>
        {!items &&
          [0, 1, 2].map((i) => (
            <Grid key={i} size={{ xs: 12, sm: 6, lg: 4 }}>
              <Skeleton variant="rounded" height={140} />
            </Grid>
          ))}
        {items?.map((division) => (
          <Grid key={division.id} size={{ xs: 12, sm: 6, lg: 4 }}>
            <Card data-testid="division-card">
              <CardContent>
                <Stack direction="row" spacing={3} sx={{ alignItems: 'center' }}>
                  <IconFolder size={28} aria-hidden />
                  <Typography variant="h6" component="h2" sx={{ wordBreak: 'break-word' }}>
                    {division.name}
                  </Typography>
                </Stack>
                <Typography color="text.secondary" sx={{ mt: 2 }}>
                  {t('pages.divisions.employees', { count: division.employeeCount })}
                </Typography>
                <Typography color="text.secondary">
                  {t('pages.divisions.files', { count: division.fileCount })}
                  {' · '}
                  {t('pages.divisions.size', { size: format.size(division.sizeBytes) })}
                </Typography>
              </CardContent>
              <CardActions>
                <Button
                  component={Link}
                  to={`/divisions/${division.id}`}
                  startIcon={<IconFiles size={18} />}
                  aria-label={`${t('pages.divisions.openFiles')}: ${division.name}`}
                >
                  {t('pages.divisions.openFiles')}
                </Button>
                <Box sx={{ flex: 1 }} />
                <IconButton
                  aria-label={`${t('pages.files.upload.button')}: ${division.name}`}
                  onClick={() => setUploading(division)}
                >
                  <IconUpload size={20} />
                </IconButton>
                <IconButton
                  aria-label={`${t('pages.divisions.rename')}: ${division.name}`}
                  onClick={() => open({ mode: 'rename', division })}
                >
                  <IconEdit size={20} />
                </IconButton>
                <IconButton
                  aria-label={`${t('common.delete')}: ${division.name}`}
                  onClick={() => setDeleting(division)}
                >
                  <IconTrash size={20} />
                </IconButton>
              </CardActions>
            </Card>
          </Grid>
        ))}
      </Grid>
      {uploading && (
        <Suspense fallback={null}>
          <UploadDialog
            divisionId={uploading.id}
            divisionName={uploading.name}
            storage={storage}
            onClose={() => setUploading(null)}
          />
        </Suspense>
      )}
      <Dialog open={editing !== null} onClose={() => setEditing(null)} fullWidth maxWidth="xs">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            save();
          }}
        >
          <DialogTitle>
            {t(editing?.mode === 'rename' ? 'pages.divisions.rename' : 'pages.divisions.add')}
          </DialogTitle>
          <DialogContent>
            <TextField
              label={t('pages.divisions.name')}
              value={name}
              onChange={(e) => setName(e.target.value)}
              error={nameError !== null}
              helperText={nameError ?? undefined}
              autoFocus
              sx={{ mt: 2 }}
              slotProps={{ htmlInput: { maxLength: 80, name: 'divisionName' } }}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setEditing(null)}>{t('common.cancel')}</Button>
            <Button
              type="submit"
              variant="contained"
              disabled={!name.trim() || create.isPending || rename.isPending}
            >
              {t(editing?.mode === 'rename' ? 'common.save' : 'common.create')}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        title={t('pages.divisions.deleteTitle')}
        text={t('pages.divisions.deleteText', { name: deleting?.name })}
        confirmLabel={t('common.delete')}
        pending={remove.isPending}
        onConfirm={() => remove.mutate(deleting!.id)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
