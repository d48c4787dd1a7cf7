import { Alert, Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { IconTrash, IconUpload } from '@tabler/icons-react';
import {
  COMPANY_LOGO_IDEAL_WIDTH,
  COMPANY_LOGO_MAX_BYTES,
  COMPANY_LOGO_SHOWN_WIDTH,
  COMPANY_LOGO_TYPES,
  type CompanyBranding,
} from '@werkwissen/shared';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRemoveCompanyLogo, useUploadCompanyLogo } from '../../api/company-branding.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { errorMessage } from '../../components/form.tsx';

/**
 * The company's logo: the one in use as the navigation shows it, uploading a new one (checked, cropped and scaled by
 * the server; a refusal is shown here) and removing it. The upload button is the tour's "logo" step.
 */
export function CompanyLogoCard({ branding }: { branding: CompanyBranding }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  const upload = useUploadCompanyLogo({
    claimError: (error) => {
      setProblem(errorMessage(error, t));
      return true;
    },
  });
  const remove = useRemoveCompanyLogo();
  return (
    <Card>
      <CardContent>
        <Stack spacing={3}>
          <Typography variant="h6" component="h2">
            {t('companyLogo.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('companyLogo.hint', {
              ideal: COMPANY_LOGO_IDEAL_WIDTH,
              shown: COMPANY_LOGO_SHOWN_WIDTH,
              limitMb: COMPANY_LOGO_MAX_BYTES / 1024 / 1024,
            })}
          </Typography>
          {branding.logo ? (
            <Box
              component="img"
              src={branding.logo.url}
              alt={t('companyLogo.currentAlt')}
              sx={{ width: COMPANY_LOGO_SHOWN_WIDTH, border: 1, borderColor: 'divider', p: 1 }}
            />
          ) : (
            <Typography variant="body2" color="text.secondary">
              {t('companyLogo.none')}
            </Typography>
          )}
          {problem && <Alert severity="error">{problem}</Alert>}
          <Stack direction="row" spacing={3} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <input
              ref={input}
              type="file"
              hidden
              accept={COMPANY_LOGO_TYPES.join(',')}
              aria-label={t('companyLogo.choose')}
              data-testid="company-logo-input"
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                setProblem(null);
                if (file) upload.mutate(file);
              }}
            />
            <Button
              variant="contained"
              startIcon={<IconUpload size={18} />}
              disabled={upload.isPending}
              onClick={() => input.current?.click()}
              data-tour="logo"
            >
              {t('companyLogo.choose')}
            </Button>
            {branding.logo && (
              <Button color="error" startIcon={<IconTrash size={18} />} onClick={() => setRemoving(true)}>
                {t('companyLogo.remove')}
              </Button>
            )}
          </Stack>
        </Stack>
        <ConfirmDialog
          open={removing}
          title={t('companyLogo.removeTitle')}
          text={t('companyLogo.removeText')}
          confirmLabel={t('companyLogo.remove')}
          pending={remove.isPending}
          onConfirm={() => remove.mutate(undefined, { onSettled: () => setRemoving(false) })}
          onClose={() => setRemoving(false)}
        />
      </CardContent>
    </Card>
  );
}
