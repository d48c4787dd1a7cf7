import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Alert,
  Box,
  Card,
  CardContent,
  Chip,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import { IconChevronDown, IconFileOff, IconMessageQuestion, IconThumbDown } from '@tabler/icons-react';
import type { KnowledgeGap } from '@werkwissen/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useDivisions } from '../../api/divisions.ts';
import { useKnowledgeGaps } from '../../api/feedback.ts';
import { errorMessage } from '../../components/form.tsx';
import { useFormat } from '../../components/format.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { type FilterKey, ReportFilterBar, toReportQuery, useReportFilters } from './report-filters.tsx';
import { ReportTabs } from './report-tabs.tsx';

const FILTERS: FilterKey[] = ['from', 'to', 'divisionId', 'origin'];

/** One group of questions that ask the same thing: how often, why it counts as a gap, and its other wordings. */
export function GapCard({ gap }: { gap: KnowledgeGap }) {
  const { t } = useTranslation();
  const format = useFormat();
  const headingId = useId();
  return (
    <Card component="article" aria-labelledby={headingId} data-testid="gap-card">
      <CardContent>
        <Stack direction="row" spacing={3} sx={{ alignItems: 'flex-start' }}>
          <Box sx={{ color: 'warning.main', display: 'flex', pt: 0.5 }}>
            <IconMessageQuestion size={24} aria-hidden />
          </Box>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography id={headingId} variant="h6" component="h2" sx={{ wordBreak: 'break-word' }}>
              <bdi>{gap.question}</bdi>
            </Typography>
            <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 2, mt: 2 }}>
              <Chip size="small" color="primary" label={t('gaps.count', { count: gap.count })} />
              <Chip
                size="small"
                variant="outlined"
                icon={<IconFileOff size={16} />}
                label={t('gaps.noAnswer', { count: gap.noAnswerCount })}
              />
              <Chip
                size="small"
                variant="outlined"
                icon={<IconThumbDown size={16} />}
                label={t('gaps.negative', { count: gap.negativeCount })}
              />
            </Stack>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
              {t('gaps.lastAsked', { date: format.dateTime(gap.lastAskedAt) })}
              {gap.divisions.length > 0 && ` · ${t('gaps.divisions', { names: gap.divisions.join(', ') })}`}
              {gap.companyName && ` · ${gap.companyName}`}
            </Typography>
          </Box>
        </Stack>
        {gap.variants.length > 0 && (
          <Accordion
            disableGutters
            elevation={0}
            sx={{ mt: 3, bgcolor: 'transparent', '&::before': { display: 'none' } }}
          >
            <AccordionSummary expandIcon={<IconChevronDown size={18} />} sx={{ px: 0 }}>
              <Typography variant="body2">{t('gaps.variants', { count: gap.variants.length })}</Typography>
            </AccordionSummary>
            <AccordionDetails sx={{ px: 0, pt: 0 }}>
              <Box component="ul" sx={{ m: 0, paddingInlineStart: 5 }}>
                {gap.variants.map((v) => (
                  <Typography key={v} component="li" variant="body2" sx={{ wordBreak: 'break-word' }}>
                    <bdi>{v}</bdi>
                  </Typography>
                ))}
              </Box>
            </AccordionDetails>
          </Accordion>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * `/feedback-report/knowledge-gaps`: the questions the documents did not answer well, grouped by what they ask, so
 * that the data manager knows which document is missing.
 */
export default function KnowledgeGapsPage() {
  const { t } = useTranslation();
  const filters = useReportFilters();
  const query = toReportQuery(filters.values, FILTERS);
  const divisions = useDivisions();
  const gaps = useKnowledgeGaps(query);
  const items = gaps.data?.items;
  return (
    <Stack spacing={6}>
      <Box>
        <PageHeader title={t('pages.knowledgeGaps.title')} />
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {t('gaps.intro')}
        </Typography>
      </Box>
      <ReportTabs />
      <ReportFilterBar
        shown={FILTERS}
        values={filters.values}
        onChange={filters.change}
        onReset={filters.reset}
        options={{ divisions: divisions.data?.items }}
      />
      {gaps.isError && <Alert severity="error">{errorMessage(gaps.error, t)}</Alert>}
      {gaps.isPending && (
        <Stack spacing={4}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={120} />
          ))}
        </Stack>
      )}
      {items?.length === 0 && (
        <Card>
          <CardContent sx={{ textAlign: 'center', py: 10 }}>
            <Typography>{t('gaps.empty')}</Typography>
          </CardContent>
        </Card>
      )}
      {items && items.length > 0 && (
        <Stack spacing={4} component="section" aria-label={t('pages.knowledgeGaps.title')}>
          {items.map((gap) => (
            <GapCard key={`${gap.companyName ?? ''}-${gap.question}`} gap={gap} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
