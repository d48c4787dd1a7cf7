import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFile } from '../../api/files.ts';
import { errorMessage } from '../../components/form.tsx';
import { useFormat } from '../../components/format.ts';
import { FileProgress, isFinal, StatusChip, useFailureMessage } from './file-status.tsx';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="dt">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, wordBreak: 'break-word' }}>
        {children}
      </Typography>
    </Box>
  );
}

/** One file: the time of each processing step, the error, and what came out of it. */
export default function FileDetailsDialog({ fileId, onClose }: { fileId: string; onClose(): void }) {
  const { t } = useTranslation();
  const format = useFormat();
  const failureMessage = useFailureMessage();
  const query = useFile(fileId, { refetchInterval: (f) => (f && !isFinal(f.status) ? 1000 : false) });
  const file = query.data;
  const none = t('pages.files.details.none');

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle sx={{ wordBreak: 'break-word' }}>
        {file ? file.name : t('pages.files.details.title')}
      </DialogTitle>
      <DialogContent>
        {query.isError && <Alert severity="error">{errorMessage(query.error, t)}</Alert>}
        {!file && !query.isError && <Skeleton variant="rounded" height={240} />}
        {file && (
          <Stack spacing={4}>
            <Stack direction="row" spacing={3} sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 2 }}>
              <StatusChip status={file.status} />
              {!isFinal(file.status) && (
                <Box sx={{ flex: 1, minWidth: 160 }}>
                  <FileProgress name={file.name} progress={file.progress} />
                </Box>
              )}
            </Stack>
            {file.replacesFileId && <Alert severity="info">{t('pages.files.details.replaces')}</Alert>}
            {file.status === 'failed' && (
              <Alert severity="error" data-testid="file-error">
                {failureMessage(file)}
              </Alert>
            )}
            <Box
              component="dl"
              sx={{
                m: 0,
                display: 'grid',
                gap: 3,
                gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(4, 1fr)' },
              }}
            >
              <Fact label={t('pages.files.size')}>{format.size(file.sizeBytes)}</Fact>
              <Fact label={t('pages.files.type')}>{t(`pages.files.kinds.${file.kind}`)}</Fact>
              <Fact label={t('pages.files.details.passages')}>{file.passageCount}</Fact>
              <Fact label={t('pages.files.details.pages')}>{file.pageCount ?? none}</Fact>
              <Fact label={t('pages.files.details.language')}>
                {file.language ? format.language(file.language) : none}
              </Fact>
              {file.ocr && (
                <Fact label={t('files.ocr.label')}>
                  {t('files.ocr.summary', {
                    confidence: format.percent(file.ocr.meanConfidence),
                    pages: file.ocr.pages.map((p) => format.number(p)).join(', '),
                  })}
                </Fact>
              )}
              <Fact label={t('pages.files.added')}>{format.dateTime(file.createdAt)}</Fact>
              <Fact label={t('pages.files.details.readyAt')}>
                {file.readyAt ? format.dateTime(file.readyAt) : none}
              </Fact>
              <Fact label={t('pages.files.details.uploadedBy')}>{file.uploadedBy ?? none}</Fact>
            </Box>
            <Box>
              <Typography variant="subtitle1" component="h3" gutterBottom>
                {t('pages.files.details.steps')}
              </Typography>
              {file.steps.length === 0 ? (
                <Typography color="text.secondary">{t('pages.files.details.noSteps')}</Typography>
              ) : (
                <Table size="small" aria-label={t('pages.files.details.steps')}>
                  <TableHead>
                    <TableRow>
                      <TableCell>{t('pages.files.details.step')}</TableCell>
                      <TableCell>{t('pages.files.details.started')}</TableCell>
                      <TableCell>{t('pages.files.details.finished')}</TableCell>
                      <TableCell align="right">{t('pages.files.details.duration')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {file.steps.map((step) => (
                      <TableRow key={`${step.step}:${step.startedAt}`} data-testid="file-step">
                        <TableCell>{t(`pages.files.statuses.${step.step}`)}</TableCell>
                        <TableCell>{format.preciseDateTime(step.startedAt)}</TableCell>
                        <TableCell>
                          {step.finishedAt
                            ? format.preciseDateTime(step.finishedAt)
                            : t('pages.files.details.running')}
                        </TableCell>
                        <TableCell align="right">
                          {step.finishedAt
                            ? format.duration(Date.parse(step.finishedAt) - Date.parse(step.startedAt))
                            : none}
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              )}
            </Box>
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
