import {
  Box,
  Link,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Tab,
  Tabs,
  Typography,
} from '@mui/material';
import { IconFileText, IconFolder, IconMessageQuestion } from '@tabler/icons-react';
import type { Chat, ChatMessage } from '@werkwissen/shared';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { fileLink } from '../files/file-url.ts';

export interface CitedFile {
  fileId: string;
  fileName: string;
  /** How many answers cite it. */
  answers: number;
  /** The file was deleted or replaced since (its passages are gone). */
  removed: boolean;
  /** A cited passage has a page: only PDFs have pages, so the file opens in the PDF viewer. */
  pdf: boolean;
}

/** The files the answers of a conversation cite, most cited first. */
export function citedFiles(messages: ChatMessage[]): CitedFile[] {
  const files = new Map<string, CitedFile>();
  for (const m of messages) {
    const seen = new Set<string>();
    for (const c of m.citations) {
      const file = files.get(c.fileId) ?? {
        fileId: c.fileId,
        fileName: c.fileName,
        answers: 0,
        removed: true,
        pdf: false,
      };
      if (!seen.has(c.fileId)) file.answers += 1;
      if (c.text !== null) file.removed = false;
      if (c.page !== null) file.pdf = true;
      seen.add(c.fileId);
      files.set(c.fileId, file);
    }
  }
  return [...files.values()].sort((a, b) => b.answers - a.answers || a.fileName.localeCompare(b.fileName));
}

const TABS = ['divisions', 'sources', 'log'] as const;
type TabName = (typeof TABS)[number];

/** The right panel: the chat's divisions, the files its answers cite, and its questions (the conversation's log). */
export function ChatDetails({
  chat,
  messages,
  onShowMessage,
}: {
  chat: Chat;
  messages: ChatMessage[];
  onShowMessage(messageId: string): void;
}) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const base = useId();
  const [tab, setTab] = useState<TabName>('sources');
  const files = citedFiles(messages);
  const questions = messages.filter((m) => m.role === 'user');

  const empty = (text: string) => (
    <Typography color="text.secondary" variant="body2" sx={{ p: 4 }}>
      {text}
    </Typography>
  );

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }}>
      <Tabs
        value={tab}
        onChange={(_e, value: TabName) => setTab(value)}
        variant="fullWidth"
        aria-label={t('chat.panel.label')}
        sx={{ borderBottom: 1, borderColor: 'divider', flexShrink: 0 }}
      >
        {TABS.map((name) => (
          <Tab
            key={name}
            value={name}
            label={t(`chat.panel.${name}`)}
            id={`${base}-tab-${name}`}
            aria-controls={`${base}-panel-${name}`}
            sx={{ minWidth: 0, px: 2 }}
          />
        ))}
      </Tabs>
      <Box
        role="tabpanel"
        id={`${base}-panel-${tab}`}
        aria-labelledby={`${base}-tab-${tab}`}
        sx={{ flex: 1, minHeight: 0, overflowY: 'auto' }}
      >
        {tab === 'divisions' && (
          <List dense>
            {chat.divisions.map((d) => (
              <ListItem key={d.id}>
                <ListItemIcon sx={{ minWidth: 32 }}>
                  <IconFolder size={18} aria-hidden />
                </ListItemIcon>
                <ListItemText primary={d.name} />
              </ListItem>
            ))}
          </List>
        )}
        {tab === 'sources' &&
          (files.length === 0 ? (
            empty(t('chat.panel.noSources'))
          ) : (
            <List dense>
              {files.map((f) => (
                <ListItem key={f.fileId} alignItems="flex-start">
                  <ListItemIcon sx={{ minWidth: 32, mt: 0.5 }}>
                    <IconFileText size={18} aria-hidden />
                  </ListItemIcon>
                  <ListItemText
                    primary={
                      f.removed ? (
                        f.fileName
                      ) : (
                        <Link
                          href={fileLink(f, pathname)}
                          target="_blank"
                          rel="noopener noreferrer"
                          sx={{ wordBreak: 'break-word' }}
                        >
                          {f.fileName}
                        </Link>
                      )
                    }
                    secondary={
                      f.removed ? t('chat.panel.fileRemoved') : t('chat.panel.citedIn', { count: f.answers })
                    }
                  />
                </ListItem>
              ))}
            </List>
          ))}
        {tab === 'log' &&
          (questions.length === 0 ? (
            empty(t('chat.panel.noQuestions'))
          ) : (
            <List dense>
              {questions.map((q) => (
                <li key={q.id}>
                  <ListItemButton onClick={() => onShowMessage(q.id)}>
                    <ListItemIcon sx={{ minWidth: 32 }}>
                      <IconMessageQuestion size={18} aria-hidden />
                    </ListItemIcon>
                    <ListItemText
                      primary={q.content}
                      slotProps={{
                        primary: {
                          sx: {
                            display: '-webkit-box',
                            WebkitBoxOrient: 'vertical',
                            WebkitLineClamp: 2,
                            overflow: 'hidden',
                          },
                        },
                      }}
                    />
                  </ListItemButton>
                </li>
              ))}
            </List>
          ))}
      </Box>
    </Box>
  );
}
