import { Alert, Button, Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import { areaOfPath } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useDivisions } from '../../api/divisions.ts';
import { errorMessage } from '../../components/form.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { SearchPanel } from './search-panel.tsx';

/**
 * The search page of the navigation: at `/search` the data manager searches every division of the company, at
 * `/employee/search` the employee searches the divisions assigned to them.
 */
export default function SearchPage() {
  const { t } = useTranslation();
  const manager = areaOfPath(useLocation().pathname) !== 'employee';
  const divisions = useDivisions();
  const items = divisions.data?.items;

  return (
    <Stack spacing={6}>
      <Stack spacing={2}>
        <PageHeader title={t('pages.search.title')} />
        <Typography color="text.secondary">
          {t(manager ? 'pages.search.introManager' : 'pages.search.intro')}
        </Typography>
      </Stack>
      {divisions.isError && <Alert severity="error">{errorMessage(divisions.error, t)}</Alert>}
      {items?.length === 0 &&
        (manager ? (
          <Alert
            severity="info"
            action={
              <Button component={Link} to="/divisions" color="inherit" size="small">
                {t('nav.divisions')}
              </Button>
            }
          >
            {t('pages.search.noDivisionsManager')}
          </Alert>
        ) : (
          <Alert severity="info">{t('pages.search.noDivisions')}</Alert>
        ))}
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
