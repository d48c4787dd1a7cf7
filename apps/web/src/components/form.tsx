import { IconButton, InputAdornment, TextField, type TextFieldProps } from '@mui/material';
import { IconEye, IconEyeOff } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { forwardRef, useState } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/http.ts';

/** A text field whose error is a locale key (the shared zod schemas carry keys, not texts). */
export const FormField = forwardRef<HTMLDivElement, TextFieldProps & { errorKey?: string }>(
  function FormField({ errorKey, ...props }, ref) {
    const { t } = useTranslation();
    return (
      <TextField
        ref={ref}
        {...props}
        error={Boolean(errorKey)}
        helperText={errorKey ? t(errorKey) : props.helperText}
      />
    );
  },
);

export const PasswordField = forwardRef<HTMLDivElement, TextFieldProps & { errorKey?: string }>(
  function PasswordField(props, ref) {
    const { t } = useTranslation();
    const [shown, setShown] = useState(false);
    return (
      <FormField
        ref={ref}
        {...props}
        type={shown ? 'text' : 'password'}
        slotProps={{
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <IconButton
                  aria-label={t(shown ? 'forms.hidePassword' : 'forms.showPassword')}
                  onClick={() => setShown((s) => !s)}
                  edge="end"
                >
                  {shown ? <IconEyeOff size={20} /> : <IconEye size={20} />}
                </IconButton>
              </InputAdornment>
            ),
          },
        }}
      />
    );
  },
);

/** The message to show for a failed call: the code's text in the interface language, else the server's. */
export function errorMessage(error: unknown, t: TFunction, fallbackKey = 'errors.INTERNAL'): string {
  if (error instanceof ApiError) {
    if (error.code === 'NETWORK') return t('errors.NETWORK');
    const key = `errors.${error.code}`;
    const text = t(key, { ...error.details });
    return text === key ? error.message || t(fallbackKey) : text;
  }
  return t(fallbackKey);
}

/** Puts the server's per-field messages on the form's fields; returns whether any matched. */
export function applyFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: string[],
) {
  if (!(error instanceof ApiError)) return false;
  let matched = false;
  for (const f of error.fieldErrors) {
    if (fields.includes(f.field)) {
      setError(f.field as Path<T>, { message: f.code });
      matched = true;
    }
  }
  const single = error.details?.field;
  if (typeof single === 'string' && fields.includes(single)) {
    setError(single as Path<T>, { message: `errors.${error.code}` });
    matched = true;
  }
  return matched;
}
