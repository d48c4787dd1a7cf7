import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { forwardRef } from 'react';
import { useTranslation } from 'react-i18next';

// Kept apart from form.tsx: TextField brings MUI's select menus, which only the pages with selects should load.
/** A TextField (needed for selects) whose error is a locale key. */
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
