import { Alert, Button, Card, CardContent, Skeleton, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link, matchPath, useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import { useEmployee, useUpdateEmployee } from '../../api/employees.ts';
import { ApiError } from '../../api/http.ts';
import { errorMessage } from '../../components/form.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { EmployeeForm, type EmployeeValues } from './employee-form.tsx';

/** `/employee-add/:id`: an employee's details and divisions. */
export default function EmployeeEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // The router has one route (the guard picks the page), so the id comes from the address itself.
  const employeeId = matchPath('/employee-add/:id', useLocation().pathname)?.params.id ?? '';
  const wellFormed = z.uuid().safeParse(employeeId).success;
  const query = useEmployee(employeeId, { enabled: wellFormed });
  const notFound = !wellFormed || (query.error instanceof ApiError && query.error.status === 404);
  const update = useUpdateEmployee();

  // The form puts the server's field errors on its fields (the snackbar says what failed as well); once saved, back to
  // the list, which the mutation has reloaded by then.
  const save = async ({ email: _email, ...values }: EmployeeValues) => {
    await update.mutateAsync({ employeeId, body: { ...values, phone: values.phone || null } });
    navigate('/employee-add');
  };

  return (
    <Stack spacing={6}>
      <PageHeader title={t('pages.employees.editTitle')} />
      {query.isError && !notFound && <Alert severity="error">{errorMessage(query.error, t)}</Alert>}
      {notFound ? (
        <Stack spacing={4} sx={{ alignItems: 'flex-start' }}>
          <Alert severity="warning">{t('pages.employees.notFound')}</Alert>
          <Button component={Link} to="/employee-add" variant="contained">
            {t('pages.employees.backToList')}
          </Button>
        </Stack>
      ) : (
        <Card>
          <CardContent>
            {query.data ? (
              <EmployeeForm formId="edit-employee" employee={query.data} onSave={save} />
            ) : (
              !query.isError && <Skeleton variant="rounded" height={320} />
            )}
            <Stack direction="row" spacing={3} sx={{ mt: 4 }}>
              <Button type="submit" form="edit-employee" variant="contained" disabled={!query.data}>
                {t('common.save')}
              </Button>
              <Button component={Link} to="/employee-add">
                {t('common.cancel')}
              </Button>
            </Stack>
          </CardContent>
        </Card>
      )}
    </Stack>
  );
}
