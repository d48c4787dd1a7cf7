import {
  Alert,
  Card,
  Chip,
  Link,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { LANGUAGE_NAMES } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useEmailTemplates } from '../../api/email-templates.ts';
import { errorMessage } from '../../components/form.tsx';
import { useFormat } from '../../components/format.ts';
import { PageHeader } from '../../components/page-header.tsx';

/**
 * `/admin/email-templates` (also `/admin/emails/email_template`): every kind of mail the product sends, the languages
 * the operator changed, and a link to edit each.
 */
export default function EmailTemplatesPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const templates = useEmailTemplates();

  return (
    <Stack spacing={6}>
      <PageHeader title={t('admin.templates.title')} subtitle={t('admin.templates.intro')} />
      {templates.isError && <Alert severity="error">{errorMessage(templates.error, t)}</Alert>}
      <Card>
        <TableContainer>
          <Table>
            <caption
              style={{
                position: 'absolute',
                width: 1,
                height: 1,
                overflow: 'hidden',
                clipPath: 'inset(50%)',
              }}
            >
              {t('admin.templates.title')}
            </caption>
            <TableHead>
              <TableRow>
                <TableCell>{t('admin.templates.columns.template')}</TableCell>
                <TableCell>{t('admin.templates.columns.edited')}</TableCell>
                <TableCell>{t('admin.templates.columns.updated')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {templates.isPending &&
                [0, 1, 2].map((i) => (
                  <TableRow key={i}>
                    <TableCell colSpan={3}>
                      <Skeleton />
                    </TableCell>
                  </TableRow>
                ))}
              {templates.data?.items.map((tpl) => (
                <TableRow key={tpl.kind} hover>
                  <TableCell>
                    <Link component={RouterLink} to={`/admin/email-templates/template/${tpl.kind}`}>
                      {t(`admin.templates.kinds.${tpl.kind}`)}
                    </Link>
                    <Typography variant="body2" color="text.secondary">
                      {t(`admin.templates.descriptions.${tpl.kind}`)}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    {tpl.editedLanguages.length === 0 ? (
                      <Typography variant="body2" color="text.secondary">
                        {t('admin.templates.allDefault')}
                      </Typography>
                    ) : (
                      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
                        {tpl.editedLanguages.map((l) => (
                          <Chip key={l} size="small" label={LANGUAGE_NAMES[l]} lang={l} />
                        ))}
                      </Stack>
                    )}
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {tpl.updatedAt ? format.dateTime(tpl.updatedAt) : t('admin.templates.never')}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </Card>
    </Stack>
  );
}
