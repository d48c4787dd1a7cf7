import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Chip,
  Grid,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import { IconCircleCheck, IconCircleDashed, IconRobot, IconStarFilled } from '@tabler/icons-react';
import { MODEL_PROVIDERS, type ModelProvider } from '@werkwissen/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAiProviders, useRemoveAiProvider } from '../../api/ai-providers.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { errorMessage } from '../../components/form.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ProviderForm } from './provider-form.tsx';

/**
 * `/ai-providers`: the language models the company's chats may answer with. One card per provider shows whether it
 * is set up; the form below edits the chosen one.
 */
export default function AiProvidersPage() {
  const { t } = useTranslation();
  const query = useAiProviders();
  const [chosen, setChosen] = useState<ModelProvider | null>(null);
  const [removing, setRemoving] = useState<ModelProvider | null>(null);
  const items = query.data?.items;
  const byProvider = new Map(items?.map((p) => [p.provider, p]));
  const selected: ModelProvider =
    chosen ?? items?.find((p) => p.isDefault)?.provider ?? items?.[0]?.provider ?? 'openai';
  const saved = byProvider.get(selected);
  const remove = useRemoveAiProvider({ onSettled: () => setRemoving(null) });

  return (
    <Stack spacing={6}>
      <Box>
        <PageHeader title={t('pages.aiProviders.title')} />
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {t('aiProviders.intro')}
        </Typography>
      </Box>
      {query.isError && <Alert severity="error">{errorMessage(query.error, t)}</Alert>}
      <Grid container spacing={6}>
        {MODEL_PROVIDERS.map((provider) => {
          const settings = byProvider.get(provider);
          const name = t(`aiProviders.providers.${provider}`);
          const active = provider === selected;
          return (
            <Grid key={provider} size={{ xs: 12, sm: 6, lg: 4, xl: 2.4 }}>
              <Card
                data-testid={`provider-card-${provider}`}
                sx={{
                  height: '100%',
                  display: 'flex',
                  flexDirection: 'column',
                  outline: active ? 2 : 0,
                  outlineColor: 'primary.main',
                }}
              >
                <CardContent sx={{ flex: 1 }}>
                  <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
                    <IconRobot size={24} aria-hidden />
                    <Typography variant="h6" component="h2">
                      {name}
                    </Typography>
                  </Stack>
                  {!items ? (
                    <Skeleton width="60%" sx={{ mt: 2 }} />
                  ) : (
                    <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: 'wrap', rowGap: 1 }}>
                      <Chip
                        size="small"
                        variant={settings ? 'filled' : 'outlined'}
                        color={settings ? 'success' : 'default'}
                        icon={settings ? <IconCircleCheck size={16} /> : <IconCircleDashed size={16} />}
                        label={t(settings ? 'aiProviders.configured' : 'aiProviders.notConfigured')}
                      />
                      {settings?.isDefault && (
                        <Chip
                          size="small"
                          color="primary"
                          icon={<IconStarFilled size={14} />}
                          label={t('aiProviders.default')}
                        />
                      )}
                    </Stack>
                  )}
                  {settings && (
                    <Typography
                      variant="body2"
                      color="text.secondary"
                      sx={{ mt: 2, wordBreak: 'break-word' }}
                    >
                      {t('aiProviders.modelValue', { model: settings.model })}
                    </Typography>
                  )}
                </CardContent>
                <CardActions>
                  <Button
                    onClick={() => setChosen(provider)}
                    aria-pressed={active}
                    aria-label={`${t(settings ? 'common.edit' : 'aiProviders.setUp')}: ${name}`}
                  >
                    {t(settings ? 'common.edit' : 'aiProviders.setUp')}
                  </Button>
                </CardActions>
              </Card>
            </Grid>
          );
        })}
      </Grid>
      {items ? (
        <ProviderForm
          key={`${selected}-${saved?.updatedAt ?? 'new'}`}
          provider={selected}
          saved={saved}
          onRemove={() => setRemoving(selected)}
        />
      ) : (
        !query.isError && <Skeleton variant="rounded" height={420} />
      )}
      <ConfirmDialog
        open={removing !== null}
        title={t('aiProviders.removeTitle', { provider: removing && t(`aiProviders.providers.${removing}`) })}
        text={t('aiProviders.removeText', { provider: removing && t(`aiProviders.providers.${removing}`) })}
        confirmLabel={t('aiProviders.remove')}
        pending={remove.isPending}
        onConfirm={() => remove.mutate(removing!)}
        onClose={() => setRemoving(null)}
      />
    </Stack>
  );
}
