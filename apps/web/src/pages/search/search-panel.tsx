import { Alert, Box, Button, Skeleton, Stack, Typography } from '@mui/material';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type SearchRequest, useSearch } from '../../api/search.ts';
import { errorMessage, InputField } from '../../components/form.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { SearchResults } from './search-results.tsx';

/**
 * A search over the passages of the divisions the user may see: a search field, an optional division filter and the
 * results. Used on the employee's search page and on the data manager's divisions page.
 */
export function SearchPanel({ divisions }: { divisions: Array<{ id: string; name: string }> }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [divisionId, setDivisionId] = useState('');
  const [search, setSearch] = useState<SearchRequest | null>(null);
  const query = useSearch(search);

  const submit = () => {
    const q = text.trim();
    if (!q) return;
    const next = { q, divisionId };
    if (search && search.q === next.q && search.divisionId === next.divisionId) void query.refetch();
    else setSearch(next);
  };

  return (
    <Stack spacing={4}>
      <Stack
        component="form"
        role="search"
        direction={{ xs: 'column', sm: 'row' }}
        spacing={3}
        sx={{ alignItems: { sm: 'center' } }}
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Box sx={{ flex: 1 }}>
          <InputField
            name="q"
            type="search"
            label={t('pages.search.query')}
            value={text}
            onChange={(e) => setText(e.target.value)}
            inputProps={{ maxLength: 1000 }}
          />
        </Box>
        {divisions.length > 1 && (
          <SelectField
            id="search-division"
            size="medium"
            label={t('pages.search.division')}
            value={divisionId}
            onChange={setDivisionId}
            options={[
              { value: '', label: t('pages.search.allDivisions') },
              ...divisions.map((d) => ({ value: d.id, label: d.name })),
            ]}
          />
        )}
        <Button
          type="submit"
          variant="contained"
          size="large"
          startIcon={<IconSearch size={18} />}
          disabled={!text.trim()}
        >
          {t('pages.search.submit')}
        </Button>
      </Stack>
      {search && query.isFetching && !query.data && (
        <Stack spacing={3} aria-busy="true" aria-label={t('shell.loading')}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={120} />
          ))}
        </Stack>
      )}
      {query.isError && <Alert severity="error">{errorMessage(query.error, t)}</Alert>}
      {search && query.data && query.data.items.length === 0 && (
        <Typography color="text.secondary" role="status" sx={{ py: 4, textAlign: 'center' }}>
          {t('pages.search.noResults', { query: search.q })}
        </Typography>
      )}
      {search && query.data && query.data.items.length > 0 && (
        <SearchResults hits={query.data.items} query={search.q} />
      )}
    </Stack>
  );
}
