import { zodResolver } from '@hookform/resolvers/zod';
import { loginBodySchema } from '@werkwissen/shared';

/** The sign-in form's validation: the shared login schema's e-mail and password (loaded lazily by the page). */
export const loginFormResolver = zodResolver(loginBodySchema.pick({ email: true, password: true }));
