import { Alert, Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { divisionContracts } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http.ts';
import { errorMessage } from '../../components/form.tsx';
import { SearchPanel } from './search-panel.tsx';

/** `/employee/search`: the employee searches the documents of the divisions assigned to them. */
export default function SearchPage() {
  const { t } = useTranslation();
  const divisions = useQuery({ queryKey: ['divisions'], queryFn: () => call(divisionContracts.list) });
  const items = divisions.data?.items;

  return (
    <Stack spacing={6}>
      <Stack spacing={2}>
        <Typography variant="h4" component="h1">
          {t('pages.search.title')}
        </Typography>
        <Typography color="text.secondary">{t('pages.search.intro')}</Typography>
      </Stack>
      {divisions.isError && <Alert severity="error">{errorMessage(divisions.error, t)}</Alert>}
      {items?.length === 0 && <Alert severity="info">{t('pages.search.noDivisions')}</Alert>}
      <Card>
        <CardContent>
          {items || divisions.isError ? (
            <SearchPanel divisions={items ?? []} />
          ) : (
            <Skeleton variant="rounded" height={56} />
          )}
        </CardContent>
      </Card>
    </Stack>
  );
}
