import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Divider,
  IconButton,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import {
  IconArrowAutofitWidth,
  IconChevronDown,
  IconChevronUp,
  IconDownload,
  IconExternalLink,
  IconZoomIn,
  IconZoomOut,
} from '@tabler/icons-react';
import {
  type CSSProperties,
  type KeyboardEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useFile } from '../../api/files.ts';
import { ApiError, sendRenewing } from '../../api/http.ts';
import { errorMessage } from '../../components/form.tsx';
import { fileContentUrl } from './file-url.ts';
import type { PDFDocumentProxy } from './pdf-engine.ts';
import { highlightPassage, requestedPassage } from './pdf-highlight.ts';
import './pdf-viewer.css';

type Engine = typeof import('./pdf-engine.ts');
type DocState =
  | { status: 'loading' }
  | { status: 'ready'; doc: PDFDocumentProxy; engine: Engine }
  | { status: 'error'; reason: 'notFound' | 'invalid' | 'password' | 'failed'; error?: unknown };

const MIN_SCALE = 0.25;
const MAX_SCALE = 4;
const ZOOM_STEP = 1.25;
/** Space around the pages inside the scrolling area, in pixels. */
const GAP = 16;

/** Read by screen readers only (`width: 1` would be 100% in MUI's sx). */
const hidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/** The file id of `/files/:fileId/view` or `/employee/files/:fileId/view`. */
export function viewerFileId(pathname: string): string {
  const id = /\/files\/([^/]+)\/view\/?$/.exec(pathname)?.[1];
  return id ? decodeURIComponent(id) : '';
}

/** The `?page=` asked for (1 when missing or not a positive number). */
export function requestedPage(search: string): number {
  const page = Number(new URLSearchParams(search).get('page'));
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/** Fetches a PDF's bytes from the content route (same origin, with the session) and opens them with pdf.js. */
function usePdfDocument(fileId: string | null): DocState {
  const [state, setState] = useState<DocState>({ status: 'loading' });
  useEffect(() => {
    if (!fileId) return;
    let cancelled = false;
    let opened: PDFDocumentProxy | null = null;
    const abort = new AbortController();
    setState({ status: 'loading' });
    const engine = import('./pdf-engine.ts');
    // Awaited below, where its failure is shown; this only keeps it from counting as unhandled meanwhile.
    engine.catch(() => {});
    (async () => {
      try {
        // The server sends a PDF as an attachment; that only matters to navigations, not to fetch().
        const res = await sendRenewing(() =>
          fetch(fileContentUrl(fileId), { credentials: 'same-origin', signal: abort.signal }),
        );
        if (res.status === 404) {
          if (!cancelled) setState({ status: 'error', reason: 'notFound' });
          return;
        }
        if (!res.ok) {
          const body = (await res.json().catch(() => null)) as {
            error?: { code?: string; message?: string };
          } | null;
          throw new ApiError(res.status, body?.error?.code ?? 'INTERNAL', body?.error?.message ?? '');
        }
        const [bytes, pdf] = await Promise.all([res.arrayBuffer(), engine]);
        const doc = await pdf.openPdf(new Uint8Array(bytes));
        if (cancelled) {
          void doc.loadingTask.destroy();
          return;
        }
        opened = doc;
        setState({ status: 'ready', doc, engine: pdf });
      } catch (error) {
        if (cancelled) return;
        const kind = (await engine.catch(() => null))?.pdfErrorKind(error) ?? 'other';
        if (cancelled) return;
        setState({
          status: 'error',
          reason: kind === 'invalid' ? 'invalid' : kind === 'password' ? 'password' : 'failed',
          error,
        });
      }
    })();
    return () => {
      cancelled = true;
      abort.abort();
      void opened?.loadingTask.destroy();
    };
  }, [fileId]);
  return state;
}

/**
 * `/files/:fileId/view?page=N` (and the employee's `/employee/files/...`): a PDF in the app's own pdf.js viewer with
 * scripting off, at the page a citation points to. Browsers' PDF viewers run a document's scripts, so the server
 * only ever sends PDFs as downloads (docs/decisions/0029-pdfs-in-own-viewer.md).
 */
export default function PdfViewerPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const fileId = viewerFileId(location.pathname);
  const page = requestedPage(location.search);
  const passage = requestedPassage(location.hash);
  const file = useFile(fileId, { enabled: fileId !== '', retry: false });
  const isPdf = file.data?.kind === 'pdf';
  const doc = usePdfDocument(isPdf ? fileId : null);
  const name = file.data?.name;
  const download = (
    <Button
      component="a"
      href={fileContentUrl(fileId, { download: true })}
      download={name ?? true}
      variant="outlined"
      startIcon={<IconDownload size={18} aria-hidden />}
    >
      {t('pages.fileViewer.download')}
    </Button>
  );

  let body: ReactNode;
  if (fileId === '' || (file.error instanceof ApiError && file.error.status === 404)) {
    body = <Alert severity="error">{t('pages.fileViewer.notFound')}</Alert>;
  } else if (file.isError) {
    body = <Alert severity="error">{errorMessage(file.error, t)}</Alert>;
  } else if (file.data && !isPdf) {
    body = (
      <Alert
        severity="info"
        action={
          <Button
            component="a"
            href={fileContentUrl(fileId)}
            target="_blank"
            rel="noopener noreferrer"
            color="inherit"
            size="small"
            endIcon={<IconExternalLink size={16} aria-hidden />}
          >
            {t('pages.fileViewer.openFile')}
          </Button>
        }
      >
        {t('pages.fileViewer.notPdf')}
      </Alert>
    );
  } else if (doc.status === 'error') {
    const message =
      doc.reason === 'notFound'
        ? t('pages.fileViewer.notFound')
        : doc.reason === 'failed' && doc.error instanceof ApiError
          ? errorMessage(doc.error, t)
          : t(`pages.fileViewer.${doc.reason}`);
    body = (
      <Stack spacing={3} sx={{ alignItems: 'flex-start' }}>
        <Alert severity="error" sx={{ alignSelf: 'stretch' }}>
          {message}
        </Alert>
        {doc.reason !== 'notFound' && download}
      </Stack>
    );
  } else if (!file.data || doc.status === 'loading') {
    body = (
      <Stack role="status" direction="row" spacing={3} sx={{ alignItems: 'center', py: 6 }}>
        <CircularProgress size={24} aria-hidden />
        <Typography>{t('pages.fileViewer.loading')}</Typography>
      </Stack>
    );
  } else {
    body = (
      <PdfView
        key={fileId}
        doc={doc.doc}
        engine={doc.engine}
        initialPage={page}
        passage={passage}
        download={download}
      />
    );
  }

  return (
    <Stack spacing={4}>
      <Typography variant="h4" component="h1" sx={{ wordBreak: 'break-word' }}>
        {name ? <bdi>{name}</bdi> : t('pages.fileViewer.title')}
      </Typography>
      {body}
    </Stack>
  );
}

interface PageBox {
  width: number;
  height: number;
}

/** The pages of an open document in a scrolling column, with page navigation, zoom and the download. */
function PdfView({
  doc,
  engine,
  initialPage,
  passage,
  download,
}: {
  doc: PDFDocumentProxy;
  engine: Engine;
  initialPage: number;
  /** The cited passage, highlighted on the page it was asked for. */
  passage: string | null;
  download: ReactNode;
}) {
  const { t } = useTranslation();
  const count = doc.numPages;
  const scroller = useRef<HTMLDivElement>(null);
  const [first, setFirst] = useState<PageBox | null>(null);
  const [width, setWidth] = useState(0);
  const [zoom, setZoom] = useState<'fit' | number>('fit');
  const [current, setCurrent] = useState(clamp(initialPage, 1, count));
  const [typed, setTyped] = useState(String(current));
  const [near, setNear] = useState<ReadonlySet<number>>(new Set());
  /** Where the last programmatic scroll went, so that its scroll event does not move the page number. */
  const jumpedTo = useRef<number | null>(null);

  useEffect(() => {
    let cancelled = false;
    void doc.getPage(1).then((p) => {
      const vp = p.getViewport({ scale: 1 });
      if (!cancelled) setFirst({ width: vp.width, height: vp.height });
    });
    return () => {
      cancelled = true;
    };
  }, [doc]);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    setWidth(el.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const numbers = useMemo(() => Array.from({ length: count }, (_, i) => i + 1), [count]);
  const fitScale = first && width > 0 ? (width - 2 * GAP) / first.width : 1;
  const scale = clamp(zoom === 'fit' ? fitScale : zoom, MIN_SCALE, MAX_SCALE);

  /** Which pages are on or near the screen (drawn) and which one is the current one (most of the view). */
  const measure = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    const top = el.scrollTop;
    const bottom = top + el.clientHeight;
    const nearby = new Set<number>();
    let best = 0;
    let bestShown = -1;
    for (const page of el.querySelectorAll<HTMLElement>('[data-page]')) {
      const n = Number(page.dataset.page);
      const pageTop = page.offsetTop;
      const pageBottom = pageTop + page.offsetHeight;
      if (pageBottom >= top - el.clientHeight && pageTop <= bottom + el.clientHeight) nearby.add(n);
      const shown = Math.min(bottom, pageBottom) - Math.max(top, pageTop);
      if (shown > bestShown) {
        best = n;
        bestShown = shown;
      }
    }
    setNear((old) => (old.size === nearby.size && [...nearby].every((n) => old.has(n)) ? old : nearby));
    if (jumpedTo.current !== null && Math.abs(el.scrollTop - jumpedTo.current) <= 2) return;
    jumpedTo.current = null;
    if (best > 0) setCurrent(best);
  }, []);

  const goTo = useCallback(
    (n: number) => {
      const target = clamp(n, 1, count);
      setCurrent(target);
      setTyped(String(target));
      const el = scroller.current;
      const page = el?.querySelector<HTMLElement>(`[data-page="${target}"]`);
      if (el && page) {
        const top = Math.max(0, Math.min(page.offsetTop - GAP, el.scrollHeight - el.clientHeight));
        jumpedTo.current = top;
        el.scrollTop = top;
      }
      measure();
    },
    [count, measure],
  );

  useEffect(() => setTyped(String(current)), [current]);

  // At the asked page once the pages have their size, and at the current page again after every zoom.
  const currentRef = useRef(current);
  currentRef.current = current;
  const placed = first !== null && width > 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the layout changes (scale), not the page
  useLayoutEffect(() => {
    if (placed) goTo(currentRef.current);
  }, [placed, scale, goTo]);

  const zoomBy = (factor: number) => setZoom(clamp(scale * factor, MIN_SCALE, MAX_SCALE));
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.target instanceof HTMLInputElement) return;
    if (e.key === 'n' || (e.key === 'PageDown' && e.ctrlKey)) {
      e.preventDefault();
      goTo(current + 1);
    } else if (e.key === 'p' || (e.key === 'PageUp' && e.ctrlKey)) {
      e.preventDefault();
      goTo(current - 1);
    } else if (e.key === '+' || e.key === '=') {
      e.preventDefault();
      zoomBy(ZOOM_STEP);
    } else if (e.key === '-') {
      e.preventDefault();
      zoomBy(1 / ZOOM_STEP);
    }
  };

  const tool = (label: string, icon: ReactNode, onClick: () => void, disabled = false) => (
    <Tooltip title={label}>
      <span>
        <IconButton aria-label={label} onClick={onClick} disabled={disabled}>
          {icon}
        </IconButton>
      </span>
    </Tooltip>
  );
  const fallback = first ?? { width: 612, height: 792 };

  return (
    <Stack spacing={3} onKeyDown={onKeyDown}>
      <Paper
        variant="outlined"
        role="toolbar"
        aria-label={t('pages.fileViewer.toolbar')}
        sx={{ position: 'relative', p: 2, display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2 }}
      >
        {tool(
          t('pages.fileViewer.previousPage'),
          <IconChevronUp size={20} />,
          () => goTo(current - 1),
          current <= 1,
        )}
        {tool(
          t('pages.fileViewer.nextPage'),
          <IconChevronDown size={20} />,
          () => goTo(current + 1),
          current >= count,
        )}
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <TextField
            size="small"
            value={typed}
            onChange={(e) => setTyped(e.target.value.replace(/\D/g, ''))}
            onKeyDown={(e) => {
              if (e.key === 'Enter') goTo(Number(typed) || current);
            }}
            onBlur={() => setTyped(String(current))}
            slotProps={{
              htmlInput: {
                inputMode: 'numeric',
                'aria-label': t('pages.fileViewer.pageNumber'),
                'data-testid': 'pdf-page-input',
                style: { width: '4ch', textAlign: 'center' },
              },
            }}
          />
          <Typography color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
            {t('pages.fileViewer.ofPages', { count })}
          </Typography>
        </Stack>
        <Divider orientation="vertical" flexItem />
        {tool(
          t('pages.fileViewer.zoomOut'),
          <IconZoomOut size={20} />,
          () => zoomBy(1 / ZOOM_STEP),
          scale <= MIN_SCALE,
        )}
        <Typography sx={{ minWidth: '6ch', textAlign: 'center' }} aria-hidden>
          {t('pages.fileViewer.zoomLevel', { percent: Math.round(scale * 100) })}
        </Typography>
        {tool(
          t('pages.fileViewer.zoomIn'),
          <IconZoomIn size={20} />,
          () => zoomBy(ZOOM_STEP),
          scale >= MAX_SCALE,
        )}
        <Tooltip title={t('pages.fileViewer.fitWidth')}>
          <IconButton
            aria-label={t('pages.fileViewer.fitWidth')}
            aria-pressed={zoom === 'fit'}
            color={zoom === 'fit' ? 'primary' : 'default'}
            onClick={() => setZoom('fit')}
          >
            <IconArrowAutofitWidth size={20} />
          </IconButton>
        </Tooltip>
        <Box sx={{ flexGrow: 1 }} />
        {download}
        <Box role="status" sx={hidden} data-testid="pdf-page-status">
          {t('pages.fileViewer.pageStatus', { page: current, count })}
        </Box>
      </Paper>
      <Box
        ref={scroller}
        // Pages are physical sheets: they keep their left-to-right geometry in Arabic too.
        dir="ltr"
        tabIndex={0}
        role="region"
        aria-label={t('pages.fileViewer.pages')}
        onScroll={measure}
        sx={{
          position: 'relative',
          // Its pages never widen the layout (a zoomed page scrolls inside; under RTL the page would shift).
          contain: 'inline-size',
          minWidth: 0,
          height: 'calc(100vh - 260px)',
          minHeight: 320,
          overflow: 'auto',
          bgcolor: 'action.hover',
          borderRadius: 1,
          p: `${GAP}px`,
          '&:focus-visible': { outline: (th) => `2px solid ${th.palette.primary.main}` },
        }}
      >
        {first &&
          numbers.map((n) => (
            <PdfPage
              key={n}
              doc={doc}
              engine={engine}
              n={n}
              scale={scale}
              near={near.has(n) || n === current}
              fallback={fallback}
              label={t('pages.fileViewer.page', { page: n })}
              passage={n === initialPage ? passage : null}
              onSize={measure}
            />
          ))}
      </Box>
    </Stack>
  );
}

/** One page: a box of the page's size, drawn (canvas and text layer) while it is on or near the screen. */
function PdfPage({
  doc,
  engine,
  n,
  scale,
  near,
  fallback,
  label,
  passage,
  onSize,
}: {
  doc: PDFDocumentProxy;
  engine: Engine;
  n: number;
  scale: number;
  near: boolean;
  fallback: PageBox;
  label: string;
  passage: string | null;
  onSize(): void;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const text = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<PageBox | null>(null);
  const [drawn, setDrawn] = useState(false);
  const shownPassage = useRef(false);

  useEffect(() => {
    if (!near) return;
    let cancelled = false;
    let task: { cancel(): void } | null = null;
    void doc.getPage(n).then((page) => {
      if (cancelled || !canvas.current || !text.current) return;
      const vp = page.getViewport({ scale: 1 });
      setSize((old) => (old && old.width === vp.width && old.height === vp.height ? old : vp));
      const drawing = engine.drawPage(page, canvas.current, text.current, scale);
      task = drawing;
      drawing.done.then(
        () => {
          if (cancelled) return;
          setDrawn(true);
          // The cited passage, marked each time the page's text is laid out (after a zoom too), shown once.
          const first = passage && text.current ? highlightPassage(text.current, passage) : null;
          if (first && !shownPassage.current) {
            shownPassage.current = true;
            first.scrollIntoView({ block: 'center' });
          }
        },
        () => {},
      );
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [doc, engine, n, scale, near, passage]);

  // A page of another size than the first moves the pages after it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the size is known
  useEffect(() => {
    if (size) onSize();
  }, [size]);

  const box = size ?? fallback;
  const style = {
    width: Math.floor(box.width * scale),
    height: Math.floor(box.height * scale),
    '--total-scale-factor': String(scale),
    '--scale-round-x': '1px',
    '--scale-round-y': '1px',
  } as CSSProperties;
  return (
    <Box
      data-page={n}
      data-drawn={drawn ? 'true' : undefined}
      role="group"
      aria-label={label}
      style={style}
      sx={{ position: 'relative', mx: 'auto', mb: `${GAP}px`, bgcolor: '#fff', boxShadow: 2 }}
    >
      <canvas ref={canvas} aria-hidden style={{ display: 'block' }} />
      <div ref={text} className="pdfTextLayer" />
    </Box>
  );
}
