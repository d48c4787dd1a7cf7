import { Alert, Box, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import { brandColorSchema, type CompanyBranding } from '@werkwissen/shared';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSetBrandColor } from '../../api/company-branding.ts';
import { errorMessage } from '../../components/form.tsx';

/**
 * The company's colour for its public chat and feedback pages: picked or typed as #rrggbb, previewed on a button, and
 * checked by the server for contrast (a colour too light for white text is refused with its measured contrast).
 */
export function CompanyColorCard({ branding }: { branding: CompanyBranding }) {
  const { t } = useTranslation();
  const [color, setColor] = useState(branding.brandColor ?? '#1f5fa8');
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSetBrandColor({
    claimError: (error) => {
      setProblem(errorMessage(error, t));
      return true;
    },
  });
  const valid = brandColorSchema.safeParse(color).success;
  const submit = (brandColor: string | null) => {
    setProblem(null);
    save.mutate(brandColor);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (valid) submit(color);
  };
  return (
    <Card>
      <CardContent>
        <Stack
          spacing={3}
          component="form"
          noValidate
          onSubmit={onSubmit}
          aria-label={t('companyColor.title')}
        >
          <Typography variant="h6" component="h2">
            {t('companyColor.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('companyColor.hint')}
          </Typography>
          {!branding.brandColor && (
            <Typography variant="body2" color="text.secondary">
              {t('companyColor.none')}
            </Typography>
          )}
          <Stack direction="row" spacing={3} sx={{ alignItems: 'flex-start' }}>
            <Box
              component="input"
              type="color"
              aria-label={t('companyColor.pick')}
              value={valid ? color : '#000000'}
              onChange={(e: React.ChangeEvent<HTMLInputElement>) => setColor(e.target.value)}
              sx={{ width: 48, height: 40, p: 0, border: 1, borderColor: 'divider', borderRadius: 1 }}
            />
            <TextField
              size="small"
              label={t('companyColor.field')}
              value={color}
              onChange={(e) => setColor(e.target.value.trim())}
              error={!valid}
              helperText={valid ? undefined : t('companyColor.invalid')}
              slotProps={{ htmlInput: { dir: 'ltr', spellCheck: false } }}
            />
          </Stack>
          {valid && (
            <Box>
              <Box
                component="span"
                data-testid="company-color-preview"
                sx={{
                  display: 'inline-block',
                  px: 4,
                  py: 2,
                  borderRadius: 1,
                  bgcolor: color,
                  color: '#ffffff',
                  fontWeight: 600,
                }}
              >
                {t('companyColor.preview')}
              </Box>
            </Box>
          )}
          {problem && (
            <Alert severity="error" role="alert">
              {problem}
            </Alert>
          )}
          <Stack direction="row" spacing={2} sx={{ flexWrap: 'wrap' }}>
            <Button type="submit" variant="contained" disabled={!valid || save.isPending}>
              {t('companyColor.save')}
            </Button>
            {branding.brandColor && (
              <Button onClick={() => submit(null)} disabled={save.isPending}>
                {t('companyColor.remove')}
              </Button>
            )}
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
}
