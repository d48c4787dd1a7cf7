import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import { IconEye, IconEyeOff } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { forwardRef, useState } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/http.ts';

export interface InputFieldProps extends Omit<OutlinedInputProps, 'error'> {
  label: string;
  /** Locale key of the error (the shared zod schemas carry keys, not texts). */
  errorKey?: string;
  helperText?: string;
}

/**
 * A labelled text input. Built from FormControl and OutlinedInput rather than TextField: TextField carries the whole
 * select machinery (menus, popovers), which the sign-in pages would otherwise download.
 */
export const InputField = forwardRef<HTMLInputElement, InputFieldProps>(function InputField(
  { label, errorKey, helperText, id, name, ...props },
  ref,
) {
  const { t } = useTranslation();
  const inputId = id ?? `field-${name}`;
  const help = errorKey ? t(errorKey) : helperText;
  return (
    <FormControl fullWidth error={Boolean(errorKey)} variant="outlined" disabled={props.disabled}>
      <InputLabel htmlFor={inputId}>{label}</InputLabel>
      <OutlinedInput
        {...props}
        id={inputId}
        name={name}
        inputRef={ref}
        label={label}
        aria-describedby={help ? `${inputId}-help` : undefined}
      />
      {help && <FormHelperText id={`${inputId}-help`}>{help}</FormHelperText>}
    </FormControl>
  );
});

export const PasswordField = forwardRef<HTMLInputElement, InputFieldProps>(
  function PasswordField(props, ref) {
    const { t } = useTranslation();
    const [shown, setShown] = useState(false);
    return (
      <InputField
        ref={ref}
        {...props}
        type={shown ? 'text' : 'password'}
        endAdornment={
          <InputAdornment position="end">
            <IconButton
              aria-label={t(shown ? 'forms.hidePassword' : 'forms.showPassword')}
              onClick={() => setShown((s) => !s)}
              edge="end"
            >
              {shown ? <IconEyeOff size={20} /> : <IconEye size={20} />}
            </IconButton>
          </InputAdornment>
        }
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
