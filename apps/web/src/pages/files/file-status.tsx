import { Box, Chip, LinearProgress, Stack, Typography } from '@mui/material';
import { alpha, darken, lighten, type Theme } from '@mui/material/styles';
import { FILE_STATUSES, FINAL_FILE_STATUSES, type FileStatus } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../components/format.ts';
import { SelectField } from '../../components/select-field.tsx';

export const isFinal = (status: FileStatus) => FINAL_FILE_STATUSES.includes(status);

/** Whether a list still has files on their way, i.e. worth polling. */
export const anyInProgress = (files: Array<{ status: FileStatus }>) => files.some((f) => !isFinal(f.status));

/**
 * Why a file failed, in the reader's language: the translation of the message's key (a failure code can have more
 * than one message), else of its failure code, else the server's message (unless that is only the code), else the
 * general processing failure. Never the bare code.
 */
export function useFailureMessage() {
  const { t, i18n } = useTranslation();
  return (file: {
    errorCode: string | null;
    errorMessage: string | null;
    errorMessageKey?: string | null;
  }) => {
    const code = file.errorCode;
    if (code && file.errorMessageKey && i18n.exists(file.errorMessageKey)) return t(file.errorMessageKey);
    if (code && i18n.exists(`errors.${code}`)) return t(`errors.${code}`, { limitMb: '', freeMb: '' });
    const message = file.errorMessage?.trim();
    if (message && message !== code && !/^(errors\.)?[A-Z][A-Z0-9_]+$/.test(message)) return message;
    return t('errors.FILE_PROCESSING_FAILED');
  };
}

type Tone = 'default' | 'info' | 'success' | 'error' | 'warning';
const TONES: Record<FileStatus, Tone> = {
  queued: 'default',
  extracting: 'info',
  chunking: 'info',
  embedding: 'info',
  indexing: 'info',
  ready: 'success',
  failed: 'error',
  cancelled: 'warning',
};

/**
 * The status as a tinted chip. MUI's filled info and warning chips put white on a light colour (about 3:1); a tint
 * with a darkened text colour keeps the label readable (WCAG AA) in both modes.
 */
export function StatusChip({ status }: { status: FileStatus }) {
  const { t } = useTranslation();
  const tone = TONES[status];
  return (
    <Chip
      size="small"
      variant={tone === 'default' ? 'outlined' : 'filled'}
      label={t(`pages.files.statuses.${status}`)}
      data-status={status}
      sx={(theme) => {
        if (tone === 'default') return {};
        const main = theme.palette[tone].main;
        const light = theme.palette.mode === 'light';
        return {
          bgcolor: alpha(main, light ? 0.14 : 0.24),
          color: light ? darken(main, 0.45) : lighten(main, 0.45),
          fontWeight: 600,
        };
      }}
    />
  );
}

/** Red text for error messages that stays readable on dark paper too. */
export const errorTextSx = (theme: Theme) => ({
  color: theme.palette.mode === 'light' ? theme.palette.error.dark : lighten(theme.palette.error.main, 0.45),
});

/** A small bar with the percentage of the whole processing chain. */
export function FileProgress({ name, progress }: { name: string; progress: number }) {
  const { t } = useTranslation();
  const format = useFormat();
  const value = Math.min(100, Math.max(0, progress));
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', minWidth: 120 }}>
      <Box sx={{ flex: 1 }}>
        <LinearProgress
          variant="determinate"
          value={value}
          aria-label={`${t('pages.files.progress')}: ${name}`}
        />
      </Box>
      <Typography variant="caption" color="text.secondary" sx={{ minWidth: 36, textAlign: 'end' }}>
        {format.percent(value)}
      </Typography>
    </Stack>
  );
}

/**
 * A file's status in a table: the chip, the progress bar while it is processed, and why it failed (with `failureTitle`
 * on hover, e.g. the failure code for administrators). Narrow enough that the tables fit a 1440 px screen.
 */
export function FileStatusCell({
  file,
  failure,
  failureTitle,
}: {
  file: { name: string; status: FileStatus; progress: number };
  failure: string;
  failureTitle?: string;
}) {
  return (
    <Stack spacing={1} sx={{ alignItems: 'flex-start', minWidth: 140, maxWidth: 240 }}>
      <StatusChip status={file.status} />
      {!isFinal(file.status) && (
        <Box sx={{ alignSelf: 'stretch' }}>
          <FileProgress name={file.name} progress={file.progress} />
        </Box>
      )}
      {file.status === 'failed' && (
        <Typography variant="caption" sx={errorTextSx} title={failureTitle}>
          {failure}
        </Typography>
      )}
    </Stack>
  );
}

/** The status filter of the file lists: every status, translated, or all. */
export function StatusFilter({ value, onChange }: { value: string; onChange(value: string): void }) {
  const { t } = useTranslation();
  return (
    <SelectField
      id="file-status-filter"
      label={t('pages.files.status')}
      value={value}
      onChange={onChange}
      options={[
        { value: '', label: t('pages.files.allStatuses') },
        ...FILE_STATUSES.map((s) => ({ value: s, label: t(`pages.files.statuses.${s}`) })),
      ]}
    />
  );
}
