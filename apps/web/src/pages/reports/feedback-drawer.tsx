import {
  Alert,
  Box,
  Chip,
  Divider,
  Drawer,
  IconButton,
  List,
  ListItem,
  Stack,
  Typography,
} from '@mui/material';
import { IconFileOff, IconX } from '@tabler/icons-react';
import type { FeedbackReportItem } from '@werkwissen/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../components/format.ts';
import { TagChip, type TagColor } from '../tags/tag-chip.tsx';
import { LikedIcon, MoodLabel, RatingStars } from './feedback-labels.tsx';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Typography variant="overline" color="text.secondary" component="h3">
        {label}
      </Typography>
      <Box>{children}</Box>
    </Box>
  );
}

/** One feedback in full: question, answer, the passages it cited, and what was said about it. */
export function FeedbackDrawer({
  item,
  tagColor,
  showCompany = false,
  onClose,
}: {
  item: FeedbackReportItem | null;
  tagColor?: TagColor;
  showCompany?: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const none = (key: string) => (
    <Typography color="text.secondary" variant="body2">
      {t(key)}
    </Typography>
  );
  return (
    <Drawer
      anchor="right"
      open={item !== null}
      onClose={onClose}
      slotProps={{
        paper: {
          sx: { width: { xs: '100%', sm: 520 } },
          role: 'dialog',
          'aria-labelledby': 'feedback-drawer-title',
        } as object,
      }}
    >
      {item && (
        <Stack spacing={4} sx={{ p: 6 }} data-testid="feedback-drawer">
          <Stack direction="row" sx={{ alignItems: 'flex-start', justifyContent: 'space-between', gap: 2 }}>
            <Box>
              <Typography id="feedback-drawer-title" variant="h6" component="h2">
                {t('reports.details.title')}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {format.dateTime(item.createdAt)} · {t(`reports.origins.${item.origin}`)} · {item.givenBy}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {t('reports.details.chat', { name: item.chatName })}
                {showCompany && item.companyName && ` · ${item.companyName}`}
              </Typography>
            </Box>
            <IconButton onClick={onClose} aria-label={t('common.close')}>
              <IconX size={20} />
            </IconButton>
          </Stack>
          {item.divisions.length > 0 && (
            <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
              {item.divisions.map((d) => (
                <Chip key={d} size="small" variant="outlined" label={d} />
              ))}
            </Stack>
          )}
          <Divider />
          <Field label={t('reports.details.question')}>
            <Typography sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              <bdi>{item.question}</bdi>
            </Typography>
          </Field>
          <Field label={t('reports.details.answer')}>
            {item.noAnswer && (
              <Alert severity="warning" sx={{ mb: 2 }}>
                {t('reports.details.noAnswer')}
              </Alert>
            )}
            <Typography sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              <bdi>{item.answer}</bdi>
            </Typography>
          </Field>
          <Field label={t('reports.details.citations')}>
            {item.citations.length === 0 ? (
              none('reports.details.noCitations')
            ) : (
              <List disablePadding data-testid="citations">
                {item.citations.map((c) => (
                  <ListItem
                    key={`${c.n}-${c.passageId ?? c.fileName}`}
                    disableGutters
                    sx={{ display: 'block', py: 2 }}
                  >
                    <Stack direction="row" spacing={2} sx={{ alignItems: 'baseline' }}>
                      <Chip size="small" label={c.n} color="primary" sx={{ minWidth: 28 }} />
                      <Typography variant="subtitle2" component="p" sx={{ wordBreak: 'break-word' }}>
                        <bdi>{c.fileName}</bdi>
                        {c.page !== null && ` · ${t('reports.details.page', { page: c.page })}`}
                      </Typography>
                    </Stack>
                    {c.text === null ? (
                      <Stack
                        direction="row"
                        spacing={1}
                        sx={{ mt: 1, alignItems: 'center', color: 'text.secondary' }}
                      >
                        <IconFileOff size={16} aria-hidden />
                        <Typography variant="body2">{t('reports.details.fileRemoved')}</Typography>
                      </Stack>
                    ) : (
                      <Typography
                        variant="body2"
                        color="text.secondary"
                        sx={{
                          mt: 1,
                          paddingInlineStart: 3,
                          borderInlineStart: (th) => `3px solid ${th.palette.divider}`,
                          whiteSpace: 'pre-wrap',
                          wordBreak: 'break-word',
                        }}
                      >
                        <bdi>{c.text}</bdi>
                      </Typography>
                    )}
                  </ListItem>
                ))}
              </List>
            )}
          </Field>
          <Divider />
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 6 }}>
            <Field label={t('reports.columns.liked')}>
              {item.liked === null ? none('reports.details.notGiven') : <LikedIcon liked={item.liked} />}
            </Field>
            <Field label={t('reports.columns.mood')}>
              {item.mood ? <MoodLabel mood={item.mood} /> : none('reports.details.notGiven')}
            </Field>
            <Field label={t('reports.columns.rating')}>
              {item.rating === null ? none('reports.details.notRated') : <RatingStars rating={item.rating} />}
            </Field>
            <Field label={t('reports.columns.tag')}>
              {item.tagName ? (
                <TagChip name={item.tagName} color={tagColor} />
              ) : (
                none('reports.details.noTag')
              )}
            </Field>
          </Stack>
          <Field label={t('reports.details.comment')}>
            {item.comment ? (
              <Typography sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                <bdi>{item.comment}</bdi>
              </Typography>
            ) : (
              none('reports.details.noComment')
            )}
          </Field>
        </Stack>
      )}
    </Drawer>
  );
}
