import { zodResolver } from '@hookform/resolvers/zod';
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
import { useQueryClient } from '@tanstack/react-query';
import { TAG_COLORS, type Tag, tagBodySchema, tagContracts } from '@werkwissen/shared';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/http.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { type Column, DataTable, type ListQuery } from '../../components/data-table.tsx';
import { applyFieldErrors, errorMessage, InputField } from '../../components/form.tsx';
import { useFormat } from '../../components/format.ts';
import { useSnackbar } from '../../components/snackbar.tsx';
import { TagChip, type TagColor } from './tag-chip.tsx';

interface TagValues {
  name: string;
  color: TagColor;
}

/** The tag list is short and unpaged on the server: search, sort and page it here. */
function pageOf(items: Tag[], query: ListQuery) {
  const q = query.q?.toLocaleLowerCase();
  const found = q ? items.filter((tag) => tag.name.toLocaleLowerCase().includes(q)) : items;
  const field = (query.sort ?? 'name').replace('-', '') as 'name' | 'feedbackCount' | 'createdAt';
  const direction = query.sort?.startsWith('-') ? -1 : 1;
  const sorted = [...found].sort((a, b) => {
    const x = a[field];
    const y = b[field];
    return direction * (typeof x === 'number' ? x - (y as number) : String(x).localeCompare(String(y)));
  });
  const start = (query.page - 1) * query.pageSize;
  return { items: sorted.slice(start, start + query.pageSize), total: found.length };
}

/** The add and edit dialog; a name that is taken shows the server's message on the name field. */
function TagDialog({ tag, onClose }: { tag: Tag | null; onClose(saved: boolean): void }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const form = useForm<TagValues>({
    resolver: zodResolver(tagBodySchema) as never,
    defaultValues: { name: tag?.name ?? '', color: tag?.color ?? 'primary' },
  });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      if (tag) {
        await call(tagContracts.update, { params: { tagId: tag.id }, body: values });
        snackbar(t('tags.saved'));
      } else {
        await call(tagContracts.create, { body: values });
        snackbar(t('tags.added'));
      }
      onClose(true);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'TAG_EXISTS') {
        form.setError('name', { message: 'errors.TAG_EXISTS' });
      } else if (!applyFieldErrors(error, form.setError, ['name', 'color'])) {
        snackbar(errorMessage(error, t), 'error');
      }
    }
  });
  return (
    <Dialog open onClose={() => onClose(false)} fullWidth maxWidth="xs">
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
        <Button onClick={() => onClose(false)}>{t('common.cancel')}</Button>
        <Button type="submit" form="tag-form" variant="contained" disabled={isSubmitting}>
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
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<{ tag: Tag | null } | null>(null);
  const [deleting, setDeleting] = useState<Tag | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['tags'] });

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
          <Typography variant="h4" component="h1">
            {t('pages.tags.title')}
          </Typography>
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
        queryKey={['tags', 'table']}
        fetchPage={async (query) => pageOf((await call(tagContracts.list)).items, query)}
        columns={columns}
        rowKey={(tag) => tag.id}
        csvName="tags"
        caption={t('pages.tags.title')}
        emptyText={t('tags.empty')}
        defaultSort="name"
      />
      {editing && (
        <TagDialog
          tag={editing.tag}
          onClose={(saved) => {
            setEditing(null);
            if (saved) void refresh();
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('tags.deleteTitle')}
        text={t('tags.deleteText', { name: deleting?.name, count: deleting?.feedbackCount ?? 0 })}
        confirmLabel={t('common.delete')}
        successMessage={t('tags.deleted')}
        onConfirm={() => call(tagContracts.remove, { params: { tagId: deleting!.id } }).then(refresh)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
