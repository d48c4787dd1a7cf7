import { Box, ButtonBase, Chip, Link, Popover, Stack, Typography } from '@mui/material';
import { IconExternalLink } from '@tabler/icons-react';
import type { Citation } from '@werkwissen/shared';
import type { TFunction } from 'i18next';
import {
  createContext,
  type ReactNode,
  type Ref,
  useContext,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { fileLink } from '../files/file-url.ts';

/** A piece of an answer: plain text, or the numbers of a citation marker like `[1]` or `[1, 3]`. */
export type AnswerPart = string | number[];

const MARKER = /\[(\d{1,3}(?:\s*[,;]\s*\d{1,3})*)\]/g;

/** Splits an answer at its citation markers; markers that name no known citation stay text. */
export function splitCitations(content: string, known: ReadonlySet<number>): AnswerPart[] {
  const parts: AnswerPart[] = [];
  let text = '';
  let at = 0;
  for (const match of content.matchAll(MARKER)) {
    const numbers = match[1]!.split(/[,;]/).map((n) => Number(n.trim()));
    if (!numbers.some((n) => known.has(n))) continue;
    text += content.slice(at, match.index);
    if (text) parts.push(text);
    text = '';
    parts.push(numbers);
    at = match.index + match[0].length;
  }
  text += content.slice(at);
  if (text) parts.push(text);
  return parts;
}

const where = (c: Citation, t: TFunction) =>
  [c.page != null ? t('chat.citation.page', { page: c.page }) : null, c.headingPath.join(' › ') || null]
    .filter(Boolean)
    .join(' · ');

function CitationChip({
  citation,
  onOpen,
  chipRef,
}: {
  citation: Citation;
  onOpen(anchor: HTMLElement): void;
  chipRef: Ref<HTMLButtonElement>;
}) {
  const { t } = useTranslation();
  return (
    <Chip
      ref={chipRef}
      component="button"
      size="small"
      color="primary"
      variant="outlined"
      label={citation.n}
      aria-label={t('chat.citation.open', { n: citation.n, file: citation.fileName })}
      aria-haspopup="dialog"
      onClick={(e) => onOpen(e.currentTarget as HTMLElement)}
      sx={{
        height: 20,
        mx: 0.25,
        verticalAlign: 'text-bottom',
        '& .MuiChip-label': { px: 1.5, fontSize: 12 },
      }}
    />
  );
}

/** The passage a citation names, the file and page it comes from, and (for signed-in users) a link to open it there. */
function CitationPopover({
  citation,
  anchor,
  linkFiles,
  onClose,
}: {
  citation: Citation | null;
  anchor: HTMLElement | null;
  linkFiles: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const titleId = useId();
  const c = citation;
  return (
    <Popover
      open={Boolean(c && anchor)}
      anchorEl={anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      transformOrigin={{ vertical: 'top', horizontal: 'center' }}
      slotProps={{ paper: { role: 'dialog', 'aria-labelledby': titleId, sx: { p: 4, maxWidth: 440 } } }}
    >
      {c && (
        <Stack spacing={2}>
          <Typography id={titleId} variant="overline" component="h3" color="text.secondary">
            {t('chat.citation.title', { n: c.n })}
          </Typography>
          <Box>
            <Typography sx={{ fontWeight: 600, wordBreak: 'break-word' }}>{c.fileName}</Typography>
            {where(c, t) && (
              <Typography variant="body2" color="text.secondary">
                {where(c, t)}
              </Typography>
            )}
          </Box>
          {c.text === null ? (
            <Typography variant="body2" color="text.secondary" sx={{ fontStyle: 'italic' }}>
              {t('chat.citation.removed')}
            </Typography>
          ) : (
            <Typography
              variant="body2"
              dir="auto"
              data-testid="citation-passage"
              sx={{ whiteSpace: 'pre-line', maxHeight: 240, overflowY: 'auto' }}
            >
              {c.text}
            </Typography>
          )}
          {linkFiles && c.text !== null && (
            <Link
              href={fileLink({ fileId: c.fileId, pdf: false, page: c.page, passage: c.text }, pathname)}
              target="_blank"
              rel="noopener noreferrer"
              sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, fontWeight: 600 }}
            >
              {c.page != null
                ? t('chat.citation.openFileAtPage', { file: c.fileName, page: c.page })
                : t('chat.citation.openFile', { file: c.fileName })}
              <IconExternalLink size={16} aria-hidden />
            </Link>
          )}
        </Stack>
      )}
    </Popover>
  );
}

export type OpenCitation = { answerId: string; n: number } | null;

/**
 * Which source of which answer a conversation shows open. The conversation keeps it, not the answer: the streamed
 * answer's bubble gives way to the stored answer's when the stream ends, and a source opened meanwhile stays open.
 */
export const OpenCitationContext = createContext<{
  open: OpenCitation;
  setOpen(open: OpenCitation): void;
} | null>(null);

/**
 * An answer with its citation markers as numbered chips, and the cited passages listed below it; a chip or a list
 * entry opens the passage.
 */
export function CitedAnswer({
  answerId,
  content,
  citations,
  linkFiles,
  trailing,
}: {
  /** The stored answer's id (while it streams, once the server named it): what keeps its open source. */
  answerId?: string | null;
  content: string;
  citations: Citation[];
  linkFiles: boolean;
  /** Shown at the end of the text (the typing cursor while the answer streams). */
  trailing?: ReactNode;
}) {
  const { t } = useTranslation();
  const shared = useContext(OpenCitationContext);
  const [ownOpen, setOwnOpen] = useState<number | null>(null);
  const kept = shared && answerId ? shared : null;
  const openN = kept ? (kept.open && kept.open.answerId === answerId ? kept.open.n : null) : ownOpen;
  const setOpenN = (n: number | null) =>
    kept ? kept.setOpen(n === null ? null : { answerId: answerId!, n }) : setOwnOpen(n);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  /** Each citation's chip in the text, else its entry in the list: where a carried-over source is anchored. */
  const targets = useRef(new Map<number, HTMLElement>());
  const target = (n: number, chip: boolean) => (el: HTMLElement | null) => {
    if (el && (chip || !targets.current.has(n))) targets.current.set(n, el);
  };
  useLayoutEffect(() => {
    if (openN !== null && !anchor?.isConnected) setAnchor(targets.current.get(openN) ?? null);
  });
  const openAt = (n: number, el: HTMLElement) => {
    setAnchor(el);
    setOpenN(n);
  };
  const byNumber = new Map(citations.map((c) => [c.n, c]));
  const parts = splitCitations(content, new Set(byNumber.keys()));
  const sorted = [...citations].sort((a, b) => a.n - b.n);

  return (
    <>
      <Typography component="div" dir="auto" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {parts.map((part, i) =>
          typeof part === 'string' ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text in their order
            <span key={i}>{part}</span>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text in their order
            <span key={i}>
              {part.map((n) => {
                const c = byNumber.get(n);
                return c ? (
                  <CitationChip
                    key={n}
                    citation={c}
                    chipRef={target(n, true)}
                    onOpen={(el) => openAt(n, el)}
                  />
                ) : null;
              })}
            </span>
          ),
        )}
        {trailing}
      </Typography>
      {sorted.length > 0 && (
        <Box sx={{ mt: 3 }}>
          <Typography variant="caption" color="text.secondary" component="p" sx={{ fontWeight: 600 }}>
            {t('chat.citation.sources')}
          </Typography>
          <Stack component="ol" spacing={1} sx={{ listStyle: 'none', m: 0, mt: 1, p: 0 }}>
            {sorted.map((c) => (
              <li key={c.n}>
                <ButtonBase
                  ref={target(c.n, false)}
                  onClick={(e) => openAt(c.n, e.currentTarget)}
                  aria-haspopup="dialog"
                  sx={{
                    gap: 2,
                    px: 1,
                    py: 0.5,
                    borderRadius: 1,
                    textAlign: 'start',
                    justifyContent: 'flex-start',
                    color: 'text.secondary',
                    '&:hover': { bgcolor: 'action.hover' },
                    '&.Mui-focusVisible': { outline: 2, outlineColor: 'primary.main' },
                  }}
                >
                  <Box
                    component="span"
                    sx={{ minWidth: 20, fontWeight: 600, color: 'primary.main', direction: 'ltr' }}
                  >
                    [{c.n}]
                  </Box>
                  <Typography component="span" variant="body2" sx={{ wordBreak: 'break-word' }}>
                    {/* Isolated, so that a Latin name's ".docx" stays at its end in an Arabic line. */}
                    <bdi>{c.fileName}</bdi>
                    {where(c, t) ? ` · ${where(c, t)}` : ''}
                  </Typography>
                </ButtonBase>
              </li>
            ))}
          </Stack>
        </Box>
      )}
      <CitationPopover
        citation={openN === null ? null : (byNumber.get(openN) ?? null)}
        anchor={anchor?.isConnected ? anchor : null}
        linkFiles={linkFiles}
        onClose={() => setOpenN(null)}
      />
    </>
  );
}
