import { Alert, Box, IconButton, Skeleton, Stack, Tooltip, Typography, useTheme } from '@mui/material';
import { IconX } from '@tabler/icons-react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { matchPath, type PublicChat } from '@werkwissen/shared';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useJoinWidget, useWidgetChat, widgetConversation } from '../../api/chat-widget.ts';
import { ApiError } from '../../api/http.ts';
import { errorMessage } from '../../components/form.tsx';
import { Logo } from '../../components/logo.tsx';
import { Conversation } from '../chat/conversation.tsx';
import { CompanyColors } from '../public-chat/company-colors.tsx';
import { VisitorForm } from '../public-chat/visitor-form.tsx';

/** Tells the launcher on the website (widget.js) something; it listens only to this frame of this server. */
function tellLauncher(message: Record<string, string | null>): void {
  if (window.parent !== window) window.parent.postMessage({ source: 'werkwissen-widget', ...message }, '*');
}

function WidgetHeader({ chat }: { chat: PublicChat }) {
  const { t } = useTranslation();
  return (
    <Stack
      direction="row"
      spacing={2}
      sx={{ alignItems: 'center', px: 3, py: 2, bgcolor: 'primary.main', color: 'primary.contrastText' }}
    >
      {chat.companyLogoUrl && (
        <Box sx={{ bgcolor: '#fff', borderRadius: 1, p: 0.5, display: 'flex' }}>
          <Logo src={chat.companyLogoUrl} alt={chat.companyName ?? ''} />
        </Box>
      )}
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography component="h1" variant="subtitle1" noWrap sx={{ fontWeight: 600 }}>
          {chat.name}
        </Typography>
        {chat.companyName && (
          <Typography variant="caption" component="p" noWrap>
            {t('publicChat.by', { company: chat.companyName })}
          </Typography>
        )}
      </Box>
      <Tooltip title={t('publicChat.widgetClose')}>
        <IconButton
          aria-label={t('publicChat.widgetClose')}
          onClick={() => tellLauncher({ type: 'close' })}
          sx={{ color: 'inherit' }}
        >
          <IconX size={20} />
        </IconButton>
      </Tooltip>
    </Stack>
  );
}

/**
 * Tells the launcher the widget can be shown: in the colour the frame shows (the company's, else the product's), the
 * page's direction, and the button's labels in the visitor's language.
 */
function ReadySignal({ name }: { name: string }) {
  const { t, i18n } = useTranslation();
  const color = useTheme().palette.primary.main;
  useEffect(() => {
    tellLauncher({
      type: 'ready',
      color,
      title: name,
      dir: i18n.dir(),
      openLabel: t('publicChat.widgetOpen'),
      closeLabel: t('publicChat.widgetClose'),
    });
  }, [color, name, i18n, t]);
  return null;
}

function WidgetScreen({ token }: { token: string }) {
  const { t } = useTranslation();
  const chat = useWidgetChat(token);
  const api = useMemo(() => widgetConversation(token), [token]);
  const data = chat.data;
  const refetch = chat.refetch;
  // The visitor ran out: back to the bot check.
  const onRefused = useCallback(
    (error: ApiError) => {
      if (error.code === 'VISITOR_REQUIRED') void refetch();
    },
    [refetch],
  );
  // A widget switched off, a chat made private or a link revoked shows nothing: the launcher never appears.
  if (
    chat.error instanceof ApiError &&
    chat.error.status < 500 &&
    chat.error.code !== 'PUBLIC_CHAT_SUSPENDED'
  )
    return null;
  if (chat.isError) return <Alert severity="error">{errorMessage(chat.error, t)}</Alert>;
  if (!data) return <Skeleton variant="rounded" height="100%" aria-label={t('shell.loading')} />;
  return (
    <CompanyColors color={data.companyColor}>
      <Box
        sx={{ height: '100dvh', display: 'flex', flexDirection: 'column', bgcolor: 'background.paper' }}
        data-testid="chat-widget"
      >
        <WidgetHeader chat={data} />
        <ReadySignal name={data.name} />
        <Box sx={{ flex: 1, minHeight: 0, overflowY: data.visitor ? 'hidden' : 'auto' }}>
          {data.visitor ? (
            <Conversation
              api={api}
              canAsk={data.canAsk}
              empty={t('publicChat.empty')}
              onRefused={onRefused}
            />
          ) : (
            <VisitorForm
              token={token}
              botCheck={data.botCheck}
              companyName={data.companyName}
              useJoin={useJoinWidget}
            />
          )}
        </Box>
      </Box>
    </CompanyColors>
  );
}

/** `/widget/:token`: a public chat in the frame of a company's website (the server lets only its websites frame it). */
export default function ChatWidgetPage() {
  const location = useLocation();
  const token = matchPath('/widget/:token', location.pathname)?.token ?? '';
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } }),
  );
  return (
    <QueryClientProvider client={queryClient}>{token && <WidgetScreen token={token} />}</QueryClientProvider>
  );
}
