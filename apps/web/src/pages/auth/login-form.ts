import { type FormEvent, useCallback, useRef, useState } from 'react';

export type LoginFormField = 'email' | 'password';
export type LoginFormValues = Record<LoginFormField, string>;
/** Each field's error as a locale key (the shared zod schemas carry keys, not texts). */
export type LoginFormErrors = Partial<Record<LoginFormField, string>>;
/** The schema's check (`login-form-schema.ts`): the values to send, or the fields' errors. */
export type LoginFormCheck = (
  values: LoginFormValues,
) => Promise<{ values: LoginFormValues; errors: LoginFormErrors }>;

const FIELDS: LoginFormField[] = ['email', 'password'];

let loading: Promise<LoginFormCheck> | null = null;
/** The schema module (and zod with it), loaded on first use instead of with the page. */
function loadCheck(): Promise<LoginFormCheck> {
  loading ??= import('./login-form-schema.ts')
    .then((m) => m.checkLoginForm)
    .catch((error: unknown) => {
      loading = null; // a failed download may be retried by the next attempt
      throw error;
    });
  return loading;
}

/**
 * Starts loading the schema (when the user starts typing), so that submitting does not wait for it; a failure is
 * reported by the submit's own load, which tries again.
 */
export const preloadLoginCheck = () => void loadCheck().catch(() => {});

/**
 * The sign-in form's state, kept small so that the sign-in page needs no form library (react-hook-form is ~15 KB of
 * the first load; every other form still uses it). It behaves as `useForm` with a resolver did: the inputs are
 * uncontrolled; submitting validates every field with the shared schema, shows each field's first error, focuses the
 * first field in error, and sends the parsed values; after a submit, typing in a field checks that field again.
 */
export function useLoginForm(defaultValues: LoginFormValues) {
  const inputs = useRef<Partial<Record<LoginFormField, HTMLInputElement | null>>>({});
  const submitted = useRef(false);
  const [errors, setErrors] = useState<LoginFormErrors>({});
  const [isSubmitting, setSubmitting] = useState(false);

  const read = useCallback(
    (): LoginFormValues => ({
      email: inputs.current.email?.value ?? '',
      password: inputs.current.password?.value ?? '',
    }),
    [],
  );

  const register = (name: LoginFormField) => ({
    name,
    defaultValue: defaultValues[name],
    ref: (element: HTMLInputElement | null) => {
      inputs.current[name] = element;
    },
    onChange: async () => {
      if (!submitted.current) return;
      const { errors: found } = await (await loadCheck())(read());
      setErrors((current) => ({ ...current, [name]: found[name] }));
    },
  });

  const handleSubmit = (onValid: (values: LoginFormValues) => Promise<void>) => async (event: FormEvent) => {
    event.preventDefault();
    setSubmitting(true);
    try {
      const { values, errors: found } = await (await loadCheck())(read());
      submitted.current = true;
      setErrors(found);
      const invalid = FIELDS.find((field) => found[field]);
      if (invalid) {
        inputs.current[invalid]?.focus();
        return;
      }
      await onValid(values);
    } finally {
      setSubmitting(false);
    }
  };

  return { register, handleSubmit, errors, isSubmitting };
}
