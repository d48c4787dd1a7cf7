import {
  Box,
  Drawer,
  FormControl,
  FormControlLabel,
  FormLabel,
  IconButton,
  Radio,
  RadioGroup,
  Stack,
  Switch,
  Typography,
} from '@mui/material';
import { IconAdjustmentsHorizontal, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type LayoutSettings, SETTING_CHOICES } from '../settings/settings.ts';
import { useSettings } from '../settings/settings-context.tsx';

type ChoiceKey =
  | 'theme'
  | 'skin'
  | 'contentWidth'
  | 'navType'
  | 'navbarType'
  | 'footerType'
  | 'horizontalNavType';
const CHOICE_KEYS: ChoiceKey[] = [
  'theme',
  'skin',
  'navType',
  'contentWidth',
  'navbarType',
  'horizontalNavType',
  'footerType',
];
const SWITCH_KEYS: Array<'verticalNavCollapsed' | 'semiDark' | 'navbarBlur'> = [
  'verticalNavCollapsed',
  'semiDark',
  'navbarBlur',
];

/** The layout settings drawer: every choice of spec section 2, saved on this device. */
export function Customizer() {
  const { t } = useTranslation();
  const { settings, update } = useSettings();
  const [open, setOpen] = useState(false);
  return (
    <>
      <IconButton
        aria-label={t('settings.title')}
        title={t('settings.title')}
        onClick={() => setOpen(true)}
        data-testid="open-customizer"
      >
        <IconAdjustmentsHorizontal size={22} stroke={1.6} />
      </IconButton>
      <Drawer anchor="right" open={open} onClose={() => setOpen(false)}>
        <Box sx={{ width: 320, p: 6 }} role="dialog" aria-label={t('settings.title')}>
          <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 4 }}>
            <Typography variant="h6" component="h2">
              {t('settings.title')}
            </Typography>
            <IconButton aria-label={t('common.close')} onClick={() => setOpen(false)}>
              <IconX size={20} />
            </IconButton>
          </Stack>
          <Stack spacing={4}>
            {CHOICE_KEYS.map((key) => (
              <FormControl key={key}>
                <FormLabel id={`setting-${key}`}>{t(`settings.${key}.label`)}</FormLabel>
                <RadioGroup
                  row
                  aria-labelledby={`setting-${key}`}
                  value={settings[key]}
                  onChange={(e) => update(key, e.target.value as LayoutSettings[typeof key])}
                >
                  {(SETTING_CHOICES[key] as readonly string[]).map((value) => (
                    <FormControlLabel
                      key={value}
                      value={value}
                      control={<Radio size="small" />}
                      label={t(`settings.${key}.${value}`)}
                    />
                  ))}
                </RadioGroup>
              </FormControl>
            ))}
            {SWITCH_KEYS.map((key) => (
              <FormControlLabel
                key={key}
                control={<Switch checked={settings[key]} onChange={(e) => update(key, e.target.checked)} />}
                label={t(`settings.${key}`)}
              />
            ))}
          </Stack>
        </Box>
      </Drawer>
    </>
  );
}
