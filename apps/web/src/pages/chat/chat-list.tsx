import {
  Alert,
  Box,
  Button,
  InputAdornment,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  OutlinedInput,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import { IconBrandWhatsapp, IconLock, IconPlus, IconSearch, IconWorld } from '@tabler/icons-react';
import type { Chat } from '@werkwissen/shared';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../components/form.tsx';

/** What a chat's list entry says under its name: where it happens, who may see it, whose it is, how long it is. */
function summary(chat: Chat, t: TFunction): string {
  return [
    chat.source === 'whatsapp' ? t('whatsapp.source') : null,
    chat.source === 'email' ? t('mailAssistant.chatSource') : null,
    chat.source === 'api' ? t('pages.apiKeys.chatSource') : null,
    t(chat.visibility === 'public' ? 'chat.public' : 'chat.private'),
    chat.isOwner ? null : t('chat.ownedBy', { name: chat.ownerName }),
    t('chat.messageCount', { count: chat.messageCount }),
  ]
    .filter(Boolean)
    .join(' · ');
}

/** The left panel: search, "New chat", and the chats with their public or private marker. */
export function ChatList({
  chats,
  error,
  search,
  onSearch,
  selectedId,
  onSelect,
  onNew,
}: {
  /** Undefined while loading. */
  chats: Chat[] | undefined;
  error: unknown;
  search: string;
  onSearch(value: string): void;
  selectedId: string | null;
  onSelect(chatId: string): void;
  onNew(): void;
}) {
  const { t } = useTranslation();
  return (
    <Stack sx={{ height: '100%', minHeight: 0 }} component="nav" aria-label={t('chat.list')}>
      <Stack spacing={3} sx={{ p: 4, borderBottom: 1, borderColor: 'divider' }}>
        <Button variant="contained" startIcon={<IconPlus size={18} />} onClick={onNew} fullWidth>
          {t('chat.new')}
        </Button>
        <OutlinedInput
          size="small"
          type="search"
          value={search}
          onChange={(e) => onSearch(e.target.value)}
          placeholder={t('chat.search')}
          inputProps={{ 'aria-label': t('chat.search'), maxLength: 200 }}
          startAdornment={
            <InputAdornment position="start">
              <IconSearch size={18} aria-hidden />
            </InputAdornment>
          }
        />
      </Stack>
      <Box sx={{ flex: 1, minHeight: 0, overflowY: 'auto' }}>
        {error ? (
          <Alert severity="error" sx={{ m: 4 }}>
            {errorMessage(error, t)}
          </Alert>
        ) : null}
        {!chats && !error && (
          <Stack spacing={2} sx={{ p: 4 }} aria-busy="true" aria-label={t('shell.loading')}>
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} variant="rounded" height={52} />
            ))}
          </Stack>
        )}
        {chats?.length === 0 && (
          <Typography color="text.secondary" sx={{ p: 4, textAlign: 'center' }}>
            {search.trim() ? t('chat.noMatches', { query: search.trim() }) : t('chat.empty')}
          </Typography>
        )}
        {chats && chats.length > 0 && (
          <List disablePadding>
            {chats.map((chat) => {
              const Marker =
                chat.source === 'whatsapp'
                  ? IconBrandWhatsapp
                  : chat.visibility === 'public'
                    ? IconWorld
                    : IconLock;
              return (
                <li key={chat.id}>
                  <ListItemButton
                    selected={chat.id === selectedId}
                    aria-current={chat.id === selectedId ? 'true' : undefined}
                    onClick={() => onSelect(chat.id)}
                    data-testid="chat-list-item"
                    sx={{ px: 4, py: 2 }}
                  >
                    <ListItemIcon sx={{ minWidth: 36, color: 'text.secondary' }}>
                      <Marker size={20} aria-hidden />
                    </ListItemIcon>
                    <ListItemText
                      primary={chat.name}
                      secondary={summary(chat, t)}
                      slotProps={{
                        // The name's own direction: an Arabic layout cuts a Latin name at its end ("left" flips).
                        primary: {
                          noWrap: true,
                          dir: 'auto',
                          title: chat.name,
                          sx: { fontWeight: 600, textAlign: 'left' },
                        },
                        secondary: { noWrap: true },
                      }}
                    />
                  </ListItemButton>
                </li>
              );
            })}
          </List>
        )}
      </Box>
    </Stack>
  );
}
