import { Box, Link, Paper, Stack, Typography } from '@mui/material';
import { IconFileText } from '@tabler/icons-react';
import type { SearchHit } from '@werkwissen/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { fileLink } from '../files/file-url.ts';

/** The words of a query worth marking: split at spaces, trimmed of punctuation, at least 2 characters. */
export function queryWords(query: string): string[] {
  const words = query
    .split(/\s+/u)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((w) => [...w].length >= 2);
  // Longest first, so that a longer word wins over one it contains.
  return [...new Set(words.map((w) => w.toLocaleLowerCase()))].sort((a, b) => b.length - a.length);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The text with every occurrence of the query's words (any case) in <mark>. */
export function highlight(text: string, query: string): ReactNode[] {
  const words = queryWords(query);
  if (words.length === 0) return [text];
  const pattern = new RegExp(`(${words.map(escapeRegExp).join('|')})`, 'giu');
  // With one capturing group, split puts the matches at the odd positions; a mark is keyed by where it starts.
  const out: ReactNode[] = [];
  let at = 0;
  text.split(pattern).forEach((part, i) => {
    if (i % 2 === 1) out.push(<mark key={at}>{part}</mark>);
    else if (part) out.push(part);
    at += part.length;
  });
  return out;
}

/** Search hits: the file (opening at the page), where in it the passage stands, and the passage with the words marked. */
export function SearchResults({ hits, query }: { hits: SearchHit[]; query: string }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <Stack
      component="ol"
      spacing={3}
      sx={{ listStyle: 'none', m: 0, p: 0 }}
      aria-label={t('pages.search.results')}
    >
      {hits.map((hit) => (
        <Paper component="li" variant="outlined" key={hit.passageId} sx={{ p: 4 }} data-testid="search-hit">
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <Box sx={{ color: 'text.secondary', display: 'flex' }}>
              <IconFileText size={20} aria-hidden />
            </Box>
            <Link
              href={fileLink(
                { fileId: hit.fileId, pdf: hit.mimeType === 'application/pdf', page: hit.page },
                pathname,
              )}
              target="_blank"
              rel="noopener noreferrer"
              sx={{ fontWeight: 600, wordBreak: 'break-word' }}
            >
              {hit.fileName}
            </Link>
          </Stack>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {[
              hit.divisionName,
              hit.page != null ? t('pages.search.page', { page: hit.page }) : null,
              hit.headingPath.length > 0 ? hit.headingPath.join(' › ') : null,
            ]
              .filter(Boolean)
              .join(' · ')}
          </Typography>
          <Typography
            sx={{
              mt: 2,
              whiteSpace: 'pre-line',
              display: '-webkit-box',
              WebkitBoxOrient: 'vertical',
              WebkitLineClamp: 6,
              overflow: 'hidden',
              // Dark text on the light marker in both modes keeps the marked words readable.
              '& mark': { bgcolor: 'warning.light', color: '#1c1b22', borderRadius: 0.5, px: 0.25 },
            }}
          >
            {highlight(hit.text, query)}
          </Typography>
        </Paper>
      ))}
    </Stack>
  );
}
