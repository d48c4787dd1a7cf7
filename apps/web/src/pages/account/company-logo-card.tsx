import { Box, Card, CardContent, Stack, Typography } from '@mui/material';
import {
  COMPANY_LOGO_IDEAL_WIDTH,
  COMPANY_LOGO_MAX_BYTES,
  COMPANY_LOGO_SHOWN_WIDTH,
  COMPANY_LOGO_TYPES,
  type CompanyBranding,
} from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRemoveCompanyLogo, useUploadCompanyLogo } from '../../api/company-branding.ts';
import { errorMessage } from '../../components/form.tsx';
import { FileSettingActions } from './file-setting-actions.tsx';

/**
 * The company's logo: the one in use as the navigation shows it, uploading a new one (checked, cropped and scaled by
 * the server; a refusal is shown here) and removing it. The upload button is the tour's "logo" step.
 */
export function CompanyLogoCard({ branding }: { branding: CompanyBranding }) {
  const { t } = useTranslation();
  const [problem, setProblem] = useState<string | null>(null);
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
          <FileSettingActions
            namespace="companyLogo"
            accept={COMPANY_LOGO_TYPES.join(',')}
            inputTestId="company-logo-input"
            tourTarget="logo"
            primary
            present={Boolean(branding.logo)}
            problem={problem}
            upload={{
              mutate: (file) => {
                setProblem(null);
                upload.mutate(file);
              },
              isPending: upload.isPending,
            }}
            remove={remove}
          />
        </Stack>
      </CardContent>
    </Card>
  );
}
