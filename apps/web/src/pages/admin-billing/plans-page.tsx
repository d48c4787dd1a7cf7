import {
  Alert,
  Button,
  LinearProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { PLAN_LIMITS, type Plan, type PlanLimit } from '@werkwissen/shared';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePlans, useUpdatePlan } from '../../api/billing.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useFormat } from '../../components/format.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { useMoney } from '../billing/money.ts';

const MB = 1024 * 1024;

/** `/admin/plans`: the plan catalogue; the administrator edits each plan's price and limits (empty: no limit). */
export default function PlansPage() {
  const { t } = useTranslation();
  const { ability } = useAuth();
  const format = useFormat();
  const money = useMoney();
  const query = usePlans();
  const [editing, setEditing] = useState<Plan | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const update = useUpdatePlan({ onSuccess: () => setEditing(null) });
  const limitText = (plan: Plan, limit: PlanLimit) => {
    const v = plan.limits[limit];
    if (v === null) return t('admin.plans.default');
    return limit === 'storageBytes' ? format.size(v) : format.number(v);
  };
  const open = (plan: Plan) => {
    const v: Record<string, string> = {
      price: plan.priceCents === null ? '' : String(plan.priceCents / 100),
    };
    for (const l of PLAN_LIMITS) {
      const x = plan.limits[l];
      v[l] = x === null ? '' : String(l === 'storageBytes' ? Math.round(x / MB) : x);
    }
    setValues(v);
    setEditing(plan);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!editing) return;
    const num = (s: string | undefined) =>
      s === undefined || s.trim() === '' ? null : Math.round(Number(s));
    const limits = Object.fromEntries(
      PLAN_LIMITS.map((l) => {
        const n = num(values[l]);
        return [l, n === null ? null : l === 'storageBytes' ? n * MB : n];
      }),
    ) as Plan['limits'];
    const price = values.price?.trim() ? Math.round(Number(values.price) * 100) : null;
    update.mutate({ plan: editing.key, priceCents: price, limits });
  };
  if (query.isError) return <Alert severity="error">{t('errors.INTERNAL')}</Alert>;
  if (!query.data) return <LinearProgress aria-label={t('admin.plans.title')} />;
  return (
    <Stack spacing={4}>
      <PageHeader title={t('admin.plans.title')} />
      <Typography color="text.secondary">{t('admin.plans.intro')}</Typography>
      <TableContainer>
        <Table size="small" aria-label={t('admin.plans.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('admin.payments.plan')}</TableCell>
              <TableCell>{t('admin.plans.price')}</TableCell>
              {PLAN_LIMITS.map((l) => (
                <TableCell key={l}>{t(`billing.limits.${l}`)}</TableCell>
              ))}
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {query.data.items.map((plan) => (
              <TableRow key={plan.key}>
                <TableCell>{t(`plans.${plan.key}`)}</TableCell>
                <TableCell>
                  {plan.priceCents === null ? '—' : money(plan.priceCents, plan.currency)}
                </TableCell>
                {PLAN_LIMITS.map((l) => (
                  <TableCell key={l}>{limitText(plan, l)}</TableCell>
                ))}
                <TableCell>
                  {ability.can('update', 'Plan') && (
                    <Button size="small" onClick={() => open(plan)}>
                      {t('admin.plans.edit')}
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <FormDialog
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={editing ? t(`plans.${editing.key}`) : ''}
        intro={t('admin.plans.editIntro')}
        formId="edit-plan"
        submitLabel={t('common.save')}
        pending={update.isPending}
      >
        <Stack component="form" id="edit-plan" onSubmit={submit} spacing={2} sx={{ mt: 1 }}>
          <TextField
            label={t('admin.plans.priceField')}
            type="number"
            value={values.price ?? ''}
            onChange={(e) => setValues({ ...values, price: e.target.value })}
            slotProps={{ htmlInput: { min: 0, step: 0.01 } }}
          />
          {PLAN_LIMITS.map((l) => (
            <TextField
              key={l}
              label={l === 'storageBytes' ? t('admin.plans.storageMb') : t(`billing.limits.${l}`)}
              type="number"
              value={values[l] ?? ''}
              onChange={(e) => setValues({ ...values, [l]: e.target.value })}
              slotProps={{ htmlInput: { min: 0, step: 1 } }}
            />
          ))}
        </Stack>
      </FormDialog>
    </Stack>
  );
}
