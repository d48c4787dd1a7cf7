import {
  Alert,
  Box,
  Button,
  Card,
  Skeleton,
  Stack,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { IconMessages, IconPlus } from '@tabler/icons-react';
import { type Chat, PROVIDER_OF_CHAT_PATH } from '@werkwissen/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { useChat, useChatOptions, useChats, useDeleteChat } from '../../api/chats.ts';
import { useDivisions } from '../../api/divisions.ts';
import { ApiError } from '../../api/http.ts';
import { useTags } from '../../api/tags.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { errorMessage } from '../../components/form.tsx';
import { ChatDialog } from './chat-dialog.tsx';
import { ChatList } from './chat-list.tsx';
import { ChatView } from './chat-view.tsx';
import { ShareDialog } from './share-dialog.tsx';

type Editing = { mode: 'new' } | { mode: 'edit'; chat: Chat };

/** Where the details panel's open or closed state is remembered on this device. */
export const DETAILS_KEY = 'chat.details';
/**
 * From this width the details panel is open unless closed on this device: below it, list and details left the
 * conversation about a third of a 1440 px screen, and answers read as a narrow column.
 */
const ROOMY = '(min-width: 1536px)';

function storedDetailsChoice(): boolean | null {
  const stored = localStorage.getItem(DETAILS_KEY);
  return stored === 'open' ? true : stored === 'closed' ? false : null;
}

/** The value, once it has stopped changing for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * `/chat` and its provider paths (`/mistralai`, …, `/employee/chat`): a messaging layout with the chats on the left,
 * the conversation in the middle and the chat's divisions, sources and questions on the right (closed by default below
 * 1536 px, the choice remembered on the device). The chosen chat is in the address (`?chat=<id>`); on phones one
 * panel shows at a time.
 */
export default function ChatPage() {
  const { t } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
  const roomy = useMediaQuery(ROOMY, { noSsr: true });
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const chatId = params.get('chat');
  const auth = useAuth();
  const preferred = PROVIDER_OF_CHAT_PATH[location.pathname.replace(/\/+$/, '')];
  // Making a chat public and sharing it is a role permission (the data manager's by default, not an employee's).
  const canPublish = auth.ability.can('publish', 'Chat');

  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), 300);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [sharing, setSharing] = useState(false);
  const [deleting, setDeleting] = useState<Chat | null>(null);
  const [wideDetails, setWideDetails] = useState(storedDetailsChoice);
  const [phoneDetails, setPhoneDetails] = useState(false);

  const list = useChats(q);
  const options = useChatOptions();
  const divisions = useDivisions();
  const tags = useTags({ enabled: auth.ability.can('read', 'Tag') });
  const listed = list.data?.items.find((c) => c.id === chatId);
  // A chosen chat the list does not show (filtered out, or further down) is fetched by itself.
  const single = useChat(chatId, { enabled: list.isSuccess && !listed });
  const chat = listed ?? (single.data?.id === chatId ? single.data : undefined);
  const notFound =
    Boolean(chatId) && !chat && single.error instanceof ApiError && single.error.status === 404;

  const select = (id: string | null) => {
    setPhoneDetails(false);
    setParams(id ? { chat: id } : {});
  };

  // The deleted chat leaves the address before the list reloads without it.
  const remove = useDeleteChat({
    onSuccess: (_data, id) => {
      if (chatId === id) select(null);
    },
    onSettled: () => setDeleting(null),
  });

  const showList = !phone || !chatId;
  const showMain = !phone || Boolean(chatId);
  const detailsOpen = phone ? phoneDetails : (wideDetails ?? roomy);
  const toggleDetails = () => {
    if (phone) return setPhoneDetails((open) => !open);
    setWideDetails(!detailsOpen);
    localStorage.setItem(DETAILS_KEY, detailsOpen ? 'closed' : 'open');
  };

  return (
    <Stack spacing={4}>
      <Typography variant="h5" component="h1">
        {t('pages.chat.title')}
      </Typography>
      <Card
        sx={{
          display: 'flex',
          height: { xs: 'calc(100dvh - 190px)', md: 'calc(100dvh - 230px)' },
          minHeight: 440,
        }}
      >
        {showList && (
          <Box
            sx={{
              width: { xs: '100%', md: 240, lg: 272, xl: 320 },
              flexShrink: 0,
              borderInlineEnd: { md: 1 },
              borderColor: { md: 'divider' },
              minHeight: 0,
            }}
          >
            <ChatList
              chats={list.data?.items}
              error={list.error}
              search={search}
              onSearch={setSearch}
              selectedId={chatId}
              onSelect={select}
              onNew={() => setEditing({ mode: 'new' })}
            />
          </Box>
        )}
        {showMain && chat && (
          <ChatView
            key={chat.id}
            chat={chat}
            options={options.data}
            tags={tags.data?.items}
            phone={phone}
            canPublish={canPublish}
            detailsOpen={detailsOpen}
            onToggleDetails={toggleDetails}
            onBack={() => select(null)}
            onEdit={() => setEditing({ mode: 'edit', chat })}
            onShare={() => setSharing(true)}
            onDelete={() => setDeleting(chat)}
          />
        )}
        {showMain && !chat && (
          <Stack spacing={4} sx={{ flex: 1, alignItems: 'center', justifyContent: 'center', p: 6 }}>
            {chatId && !notFound && !single.isError ? (
              <Skeleton variant="rounded" width="80%" height={120} />
            ) : (
              <>
                {notFound && <Alert severity="warning">{t('chat.notFound')}</Alert>}
                {single.isError && !notFound && (
                  <Alert severity="error">{errorMessage(single.error, t)}</Alert>
                )}
                <Box sx={{ color: 'text.disabled' }}>
                  <IconMessages size={56} stroke={1.2} aria-hidden />
                </Box>
                <Typography color="text.secondary" sx={{ textAlign: 'center' }}>
                  {t('chat.select')}
                </Typography>
                <Button
                  variant="outlined"
                  startIcon={<IconPlus size={18} />}
                  onClick={() => setEditing({ mode: 'new' })}
                >
                  {t('chat.new')}
                </Button>
                {phone && chatId && <Button onClick={() => select(null)}>{t('chat.back')}</Button>}
              </>
            )}
          </Stack>
        )}
      </Card>
      {editing && (divisions.data || divisions.isError) && (
        <ChatDialog
          chat={editing.mode === 'edit' ? editing.chat : undefined}
          canPublish={canPublish}
          options={options.data}
          divisions={divisions.data?.items}
          preferred={preferred}
          onClose={() => setEditing(null)}
          onSaved={(next) => {
            setEditing(null);
            if (editing.mode === 'new') select(next.id);
            // A colleague's chat made private is theirs alone again: it leaves this screen.
            else if (!next.isOwner && next.visibility === 'private') select(null);
          }}
        />
      )}
      {sharing && chat && (
        <ShareDialog chat={chat} canPublish={canPublish} onClose={() => setSharing(false)} />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('chat.deleteTitle')}
        text={t('chat.deleteText', { name: deleting?.name })}
        confirmLabel={t('common.delete')}
        pending={remove.isPending}
        onConfirm={() => remove.mutate(deleting!.id)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
