import { Box, Chip, IconButton, Stack, Tooltip, Typography, useTheme } from '@mui/material';
import {
  IconArrowLeft,
  IconBrandWhatsapp,
  IconEdit,
  IconLayoutSidebarRightCollapse,
  IconLayoutSidebarRightExpand,
  IconLock,
  IconShare,
  IconTrash,
  IconWorld,
} from '@tabler/icons-react';
import type { Chat, ChatOptions, Tag } from '@werkwissen/shared';
import { type ReactNode, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useBillingStatus } from '../../api/billing.ts';
import { chatConversation } from '../../api/chats.ts';
import { useMessages } from '../../api/conversations.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { ChatDetails } from './chat-details.tsx';
import { Conversation } from './conversation.tsx';

function Action({ label, onClick, children }: { label: string; onClick(): void; children: ReactNode }) {
  return (
    <Tooltip title={label}>
      <IconButton aria-label={label} onClick={onClick}>
        {children}
      </IconButton>
    </Tooltip>
  );
}

/**
 * One chat: its header (name, visibility, provider, and the actions of whoever manages it: its owner, or the data
 * manager for a colleague's public chat), the conversation, and the collapsible details panel. On phones only one
 * of conversation and details shows, with a way back. Without `canPublish` the share dialog only takes a link back.
 */
export function ChatView({
  chat,
  options,
  tags,
  phone,
  canPublish,
  detailsOpen,
  onToggleDetails,
  onBack,
  onEdit,
  onShare,
  onDelete,
}: {
  chat: Chat;
  options: ChatOptions | undefined;
  tags: Tag[] | undefined;
  phone: boolean;
  canPublish: boolean;
  detailsOpen: boolean;
  onToggleDetails(): void;
  onBack(): void;
  onEdit(): void;
  onShare(): void;
  onDelete(): void;
}) {
  const { t } = useTranslation();
  const theme = useTheme();
  const detailsId = useId();
  const api = useMemo(() => chatConversation(chat.id), [chat.id]);
  const messages = useMessages(api);
  // Connecting a language model is the company's data manager's setting.
  const canConnectProvider = useAuth().ability.can('update', 'Company');
  const planEnded = useBillingStatus().data?.subscription?.ended ?? false;
  const mirror = theme.direction === 'rtl' ? { transform: 'scaleX(-1)' } : undefined;
  const showConversation = !(phone && detailsOpen);
  const provider = options?.providers.find((p) => p.provider === chat.provider);

  const showMessage = (messageId: string) => {
    if (phone) onToggleDetails();
    // After the conversation is back on screen.
    requestAnimationFrame(() => {
      const el = document.getElementById(`message-${messageId}`);
      el?.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
      el?.focus({ preventScroll: true });
    });
  };

  return (
    <Box sx={{ display: 'flex', flex: 1, minWidth: 0, minHeight: 0 }}>
      <Box sx={{ display: 'flex', flexDirection: 'column', flex: 1, minWidth: 0, minHeight: 0 }}>
        <Stack
          direction="row"
          spacing={2}
          sx={{ alignItems: 'center', px: { xs: 2, sm: 4 }, py: 2, borderBottom: 1, borderColor: 'divider' }}
        >
          {phone && (
            <Action
              label={t(detailsOpen ? 'chat.backToConversation' : 'chat.back')}
              onClick={detailsOpen ? onToggleDetails : onBack}
            >
              <IconArrowLeft size={20} style={mirror} />
            </Action>
          )}
          <Box sx={{ flex: 1, minWidth: 0 }}>
            {/* The name's own direction, so that an Arabic layout cuts a Latin name at its end ("left" flips). */}
            <Typography
              variant="h6"
              component="h2"
              noWrap
              dir="auto"
              title={chat.name}
              sx={{ textAlign: 'left' }}
            >
              {chat.name}
            </Typography>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center', minWidth: 0 }}>
              <Chip
                size="small"
                variant="outlined"
                icon={chat.visibility === 'public' ? <IconWorld size={14} /> : <IconLock size={14} />}
                label={t(chat.visibility === 'public' ? 'chat.public' : 'chat.private')}
              />
              {chat.source === 'whatsapp' && (
                <Chip
                  size="small"
                  variant="outlined"
                  color="success"
                  icon={<IconBrandWhatsapp size={14} />}
                  label={t('whatsapp.source')}
                />
              )}
              <Typography variant="caption" color="text.secondary" noWrap>
                {provider?.model
                  ? t('chat.providerModel', {
                      provider: t(`chat.providers.${chat.provider}`),
                      model: provider.model,
                    })
                  : t(`chat.providers.${chat.provider}`)}
              </Typography>
            </Stack>
          </Box>
          {chat.canManage && chat.visibility === 'public' && (canPublish || chat.shareToken) && (
            <Action label={t('chat.share.title')} onClick={onShare}>
              <IconShare size={20} />
            </Action>
          )}
          {/* A WhatsApp chat has no divisions or visibility to edit: it answers from all its owner may read. */}
          {chat.canManage && chat.source === 'web' && (
            <Action label={t('chat.edit')} onClick={onEdit}>
              <IconEdit size={20} />
            </Action>
          )}
          {chat.canManage && (
            <Action label={t('chat.delete')} onClick={onDelete}>
              <IconTrash size={20} />
            </Action>
          )}
          <Tooltip title={t(detailsOpen ? 'chat.hideDetails' : 'chat.showDetails')}>
            <IconButton
              aria-label={t(detailsOpen ? 'chat.hideDetails' : 'chat.showDetails')}
              aria-expanded={detailsOpen}
              aria-controls={detailsId}
              onClick={onToggleDetails}
            >
              {detailsOpen ? (
                <IconLayoutSidebarRightCollapse size={20} style={mirror} />
              ) : (
                <IconLayoutSidebarRightExpand size={20} style={mirror} />
              )}
            </IconButton>
          </Tooltip>
        </Stack>
        <Box sx={{ flex: 1, minHeight: 0, display: showConversation ? 'block' : 'none' }}>
          <Conversation
            api={api}
            canAsk={chat.canAsk}
            blocked={planEnded ? t('errors.PLAN_EXPIRED') : undefined}
            tags={tags}
            speech={options?.speech}
            providerHint={canConnectProvider}
          />
        </Box>
        {phone && detailsOpen && (
          <Box id={detailsId} component="aside" sx={{ flex: 1, minHeight: 0 }}>
            <ChatDetails chat={chat} messages={messages.data?.items ?? []} onShowMessage={showMessage} />
          </Box>
        )}
      </Box>
      {!phone && detailsOpen && (
        <Box
          id={detailsId}
          component="aside"
          aria-label={t('chat.panel.label')}
          sx={{
            width: { md: 280, lg: 320 },
            flexShrink: 0,
            borderInlineStart: 1,
            borderColor: 'divider',
            minHeight: 0,
          }}
        >
          <ChatDetails chat={chat} messages={messages.data?.items ?? []} onShowMessage={showMessage} />
        </Box>
      )}
    </Box>
  );
}
