import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormLabel,
  IconButton,
  Radio,
  RadioGroup,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import { IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import { TAG_COLORS, type Tag, tagBodySchema } from '@werkwissen/shared';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/http.ts';
import { tagTable, useDeleteTag, useSaveTag } from '../../api/tags.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { applyFieldErrors, InputField } from '../../components/form.tsx';
import { useFormat } from '../../components/format.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { useSchemaForm } from '../../components/schema-form.ts';
import { TagChip } from './tag-chip.tsx';

/** The add and edit dialog; a name that is taken shows the server's message on the name field. */
function TagDialog({ tag, onClose }: { tag: Tag | null; onClose(): void }) {
  const { t } = useTranslation();
  const form = useSchemaForm(tagBodySchema, {
    defaultValues: { name: tag?.name ?? '', color: tag?.color ?? 'primary' },
  });
  const { errors } = form.formState;
  const save = useSaveTag({
    onSuccess: onClose,
    claimError: (error) => {
      if (!(error instanceof ApiError && error.code === 'TAG_EXISTS'))
        return applyFieldErrors(error, form.setError, ['name', 'color']);
      form.setError('name', { message: 'errors.TAG_EXISTS' });
      return true;
    },
  });
  const onSubmit = form.handleSubmit((body) => save.mutate({ tagId: tag?.id, body }));
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{t(tag ? 'tags.edit' : 'tags.add')}</DialogTitle>
      <DialogContent>
        <Stack component="form" id="tag-form" spacing={4} noValidate onSubmit={onSubmit} sx={{ pt: 2 }}>
          <InputField
            {...form.register('name')}
            id="tag-name"
            label={t('tags.name')}
            autoFocus
            slotProps={{ input: { maxLength: 40 } }}
            errorKey={errors.name?.message}
          />
          <Controller
            name="color"
            control={form.control}
            render={({ field }) => (
              <FormControl>
                <FormLabel id="tag-color-label">{t('tags.color')}</FormLabel>
                <RadioGroup
                  row
                  aria-labelledby="tag-color-label"
                  name="color"
                  value={field.value}
                  onChange={(e) => field.onChange(e.target.value)}
                >
                  {TAG_COLORS.map((color) => (
                    <FormControlLabel
                      key={color}
                      value={color}
                      control={<Radio color={color} />}
                      label={<TagChip name={t(`tags.colors.${color}`)} color={color} />}
                    />
                  ))}
                </RadioGroup>
              </FormControl>
            )}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button type="submit" form="tag-form" variant="contained" disabled={save.isPending}>
          {t(tag ? 'common.save' : 'common.create')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** `/tags`: the company's feedback tags with their colour and how much feedback carries each. */
export default function TagsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const [editing, setEditing] = useState<{ tag: Tag | null } | null>(null);
  const [deleting, setDeleting] = useState<Tag | null>(null);
  const remove = useDeleteTag({ onSettled: () => setDeleting(null) });

  const columns: Column<Tag>[] = [
    {
      id: 'name',
      label: t('tags.name'),
      sortable: true,
      render: (tag) => <TagChip name={tag.name} color={tag.color} />,
      csv: (tag) => tag.name,
    },
    {
      id: 'color',
      label: t('tags.color'),
      render: (tag) => t(`tags.colors.${tag.color}`),
      csv: (tag) => t(`tags.colors.${tag.color}`),
    },
    {
      id: 'feedbackCount',
      label: t('tags.feedbackCount'),
      sortable: true,
      align: 'right',
      render: (tag) => format.number(tag.feedbackCount),
      csv: (tag) => tag.feedbackCount,
    },
    {
      id: 'createdAt',
      label: t('tags.created'),
      sortable: true,
      render: (tag) => <Box sx={{ whiteSpace: 'nowrap' }}>{format.dateTime(tag.createdAt)}</Box>,
      csv: (tag) => format.dateTime(tag.createdAt),
    },
    {
      id: 'actions',
      label: t('common.actions'),
      align: 'right',
      render: (tag) => (
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <Tooltip title={t('tags.edit')}>
            <IconButton aria-label={`${t('tags.edit')}: ${tag.name}`} onClick={() => setEditing({ tag })}>
              <IconEdit size={20} />
            </IconButton>
          </Tooltip>
          <Tooltip title={t('common.delete')}>
            <IconButton aria-label={`${t('common.delete')}: ${tag.name}`} onClick={() => setDeleting(tag)}>
              <IconTrash size={20} />
            </IconButton>
          </Tooltip>
        </Stack>
      ),
    },
  ];

  return (
    <Stack spacing={6}>
      <Stack
        direction="row"
        sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 3 }}
      >
        <Box>
          <PageHeader title={t('pages.tags.title')} />
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {t('tags.intro')}
          </Typography>
        </Box>
        <Button
          variant="contained"
          startIcon={<IconPlus size={18} />}
          onClick={() => setEditing({ tag: null })}
        >
          {t('tags.add')}
        </Button>
      </Stack>
      <DataTable<Tag>
        queryKey={tagTable.queryKey}
        fetchPage={tagTable.fetchPage}
        columns={columns}
        rowKey={(tag) => tag.id}
        csvName="tags"
        caption={t('pages.tags.title')}
        emptyText={t('tags.empty')}
        defaultSort="name"
      />
      {editing && <TagDialog tag={editing.tag} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        title={t('tags.deleteTitle')}
        text={t('tags.deleteText', { name: deleting?.name, count: deleting?.feedbackCount ?? 0 })}
        confirmLabel={t('common.delete')}
        pending={remove.isPending}
        onConfirm={() => remove.mutate(deleting!.id)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
