import { Alert, Button, Card, Skeleton, Stack, Tab, Tabs, useTheme } from '@mui/material';
import { IconArrowBack } from '@tabler/icons-react';
import { LANGUAGE_NAMES, type Language } from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, matchPath, useLocation } from 'react-router';
import { useEmailTemplate } from '../../api/email-templates.ts';
import { ApiError } from '../../api/http.ts';
import { errorMessage } from '../../components/form.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { TemplateEditor } from './template-editor.tsx';

/** `/admin/email-templates/template/:id`: one kind of mail, its text per language (`:id` is the kind). */
export default function EmailTemplateEditPage() {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const kind = matchPath('/admin/email-templates/template/:id', useLocation().pathname)?.params.id ?? '';
  const query = useEmailTemplate(kind);
  const [language, setLanguage] = useState<Language>((i18n.language as Language) || 'en');
  const notFound = query.error instanceof ApiError && query.error.status === 404;
  const current = query.data?.languages.find((l) => l.language === language) ?? query.data?.languages[0];

  const back = (
    <Button
      component={Link}
      to="/admin/email-templates"
      startIcon={
        <IconArrowBack size={18} style={theme.direction === 'rtl' ? { transform: 'scaleX(-1)' } : {}} />
      }
    >
      {t('admin.templates.backToList')}
    </Button>
  );
  return (
    <Stack spacing={6}>
      <PageHeader
        title={
          notFound || !query.data
            ? t('admin.templates.editTitle')
            : t(`admin.templates.kinds.${query.data.kind}`)
        }
        actions={back}
      />
      {notFound && <Alert severity="warning">{t('admin.templates.notFound')}</Alert>}
      {query.isError && !notFound && <Alert severity="error">{errorMessage(query.error, t)}</Alert>}
      {query.isPending && <Skeleton variant="rounded" height={480} />}
      {query.data && current && (
        <Card>
          <Tabs
            value={current.language}
            onChange={(_e, v: Language) => setLanguage(v)}
            variant="scrollable"
            allowScrollButtonsMobile
            aria-label={t('admin.templates.languages')}
            sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }}
          >
            {query.data.languages.map((l) => (
              <Tab
                key={l.language}
                value={l.language}
                lang={l.language}
                label={l.edited ? `${LANGUAGE_NAMES[l.language]} •` : LANGUAGE_NAMES[l.language]}
                aria-label={
                  l.edited
                    ? `${LANGUAGE_NAMES[l.language]} (${t('admin.templates.edited')})`
                    : LANGUAGE_NAMES[l.language]
                }
              />
            ))}
          </Tabs>
          <TemplateEditor
            key={`${current.language}:${current.updatedAt ?? 'default'}`}
            kind={query.data.kind}
            template={current}
            variables={query.data.variables}
          />
        </Card>
      )}
    </Stack>
  );
}
