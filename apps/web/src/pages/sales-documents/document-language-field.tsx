import { MenuItem, TextField } from '@mui/material';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';

/** The language a document is written in: one of the nine, each named in its own language. */
export function DocumentLanguageField({
  id,
  value,
  onChange,
  fullWidth,
}: {
  id: string;
  value: Language;
  onChange(language: Language): void;
  fullWidth?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <TextField
      select
      id={id}
      fullWidth={fullWidth}
      label={t('handwerk.language')}
      value={value}
      onChange={(e) => onChange(e.target.value as Language)}
    >
      {LANGUAGES.map((l) => (
        <MenuItem key={l} value={l}>
          {LANGUAGE_NAMES[l]}
        </MenuItem>
      ))}
    </TextField>
  );
}
