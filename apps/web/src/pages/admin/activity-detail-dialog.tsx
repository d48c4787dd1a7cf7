import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { activityEntrySchema } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useFormat } from '../../components/format.ts';
import { changedValues, shownValue } from './change-diff.ts';

export type ActivityEntry = z.infer<typeof activityEntrySchema>;

/** Code and technical values read left to right, also in Arabic. */
const ltr = { direction: 'ltr', unicodeBidi: 'isolate', fontFamily: 'monospace' } as const;

/** One entry of the log: who did what where, and for changes of settings and templates each value before and after. */
export function ActivityDetailDialog({ entry, onClose }: { entry: ActivityEntry | null; onClose(): void }) {
  const { t } = useTranslation();
  const format = useFormat();
  const none = t('admin.activity.none');
  const changes = entry?.changes ? changedValues(entry.changes.before, entry.changes.after) : [];
  const facts: Array<[string, string, boolean?]> = entry
    ? [
        [t('admin.activity.columns.time'), format.dateTime(entry.createdAt)],
        [t('admin.activity.columns.action'), entry.action, true],
        [t('admin.activity.columns.endpoint'), `${entry.method} ${entry.endpoint}`, true],
        [t('admin.activity.columns.code'), String(entry.statusCode), true],
        [t('admin.activity.columns.actor'), entry.actorEmail ?? none],
        ...(entry.impersonatorEmail
          ? [[t('admin.activity.columns.viewedBy'), entry.impersonatorEmail] as [string, string]]
          : []),
        [t('admin.activity.columns.company'), entry.companyName ?? none],
        [t('admin.activity.columns.address'), entry.ip ?? none, true],
        [t('admin.activity.requestId'), entry.requestId ?? none, true],
      ]
    : [];
  return (
    <Dialog open={entry !== null} onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>{t('admin.activity.detailTitle')}</DialogTitle>
      <DialogContent>
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: 2, m: 0 }}>
          {facts.map(([label, value, technical]) => (
            <Box key={label} sx={{ display: 'contents' }}>
              <Typography component="dt" color="text.secondary">
                {label}
              </Typography>
              <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere', ...(technical ? ltr : {}) }}>
                {value}
              </Typography>
            </Box>
          ))}
        </Box>
        <Typography variant="h6" component="h3" sx={{ mt: 6, mb: 2 }}>
          {t('admin.activity.changes')}
        </Typography>
        {changes.length === 0 ? (
          <Typography color="text.secondary">{t('admin.activity.noChanges')}</Typography>
        ) : (
          <Table size="small" aria-label={t('admin.activity.changes')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('admin.activity.field')}</TableCell>
                <TableCell>{t('admin.activity.before')}</TableCell>
                <TableCell>{t('admin.activity.after')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {changes.map((c) => (
                <TableRow key={c.path}>
                  <TableCell sx={ltr}>{c.path}</TableCell>
                  <TableCell sx={{ color: 'error.main', overflowWrap: 'anywhere' }} dir="auto">
                    <del>{shownValue(c.before)}</del>
                  </TableCell>
                  <TableCell sx={{ color: 'success.main', overflowWrap: 'anywhere' }} dir="auto">
                    <ins>{shownValue(c.after)}</ins>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
