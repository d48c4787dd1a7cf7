import type { AppConfig } from '@werkwissen/shared';

/**
 * The third-party origins the pages may load the configured bot check from (its script on demand, its frame):
 * none for ALTCHA, which the server serves itself.
 */
export function botCheckSources(config: Pick<AppConfig, 'BOT_PROTECTION'>): {
  script: string[];
  frame: string[];
} {
  switch (config.BOT_PROTECTION) {
    case 'recaptcha':
      return {
        script: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
        frame: ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'],
      };
    case 'turnstile':
      return { script: ['https://challenges.cloudflare.com'], frame: ['https://challenges.cloudflare.com'] };
    default:
      return { script: [], frame: [] };
  }
}
