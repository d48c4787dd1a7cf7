import { loginBodySchema } from '@werkwissen/shared';
import type { LoginFormCheck, LoginFormErrors } from './login-form.ts';

const schema = loginBodySchema.pick({ email: true, password: true });

/**
 * The sign-in form's validation (loaded lazily by the page): the shared login schema's e-mail and password. As a form
 * resolver would: the parsed values (the address trimmed and lower-cased) or each field's first error's locale key.
 */
export const checkLoginForm: LoginFormCheck = async (values) => {
  const result = await schema.safeParseAsync(values);
  if (result.success) return { values: result.data, errors: {} };
  const errors: LoginFormErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path.join('.');
    if (field === 'email' || field === 'password') errors[field] ??= issue.message;
  }
  return { values, errors };
};
