import MenuItem from '@mui/material/MenuItem';
import { LANGUAGE_NAMES, LANGUAGES } from '@werkwissen/shared';
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormField } from './form-field.tsx';

/** The language field of a form: each language by its own name. */
export function LanguageSelect<T extends FieldValues>({
  control,
  name,
  errorKey,
}: {
  control: Control<T>;
  name: Path<T>;
  errorKey?: string;
}) {
  const { t } = useTranslation();
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <FormField {...field} select label={t('fields.language')} errorKey={errorKey}>
          {LANGUAGES.map((lang) => (
            <MenuItem key={lang} value={lang} lang={lang}>
              {LANGUAGE_NAMES[lang]}
            </MenuItem>
          ))}
        </FormField>
      )}
    />
  );
}
