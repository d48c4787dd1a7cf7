import { useCallback, useState } from 'react';
import { useConfig } from '../app/config-context.tsx';
import { AltchaCheck } from './altcha-check.tsx';
import { ProviderCaptcha } from './provider-captcha.tsx';

export type BotCheckProvider = 'altcha' | 'recaptcha' | 'turnstile' | 'off';

/** The configured bot check's widget: ALTCHA (self-hosted), reCAPTCHA or Turnstile; nothing when it is off. */
export function BotCheck({
  provider,
  siteKey,
  onChange,
}: {
  provider: BotCheckProvider;
  siteKey: string | null;
  onChange(answer: string | null): void;
}) {
  if (provider === 'off') return null;
  if (provider === 'altcha') return <AltchaCheck onChange={onChange} />;
  return <ProviderCaptcha provider={provider} siteKey={siteKey ?? ''} onChange={onChange} />;
}

/**
 * A public form's bot check as the installation has it (from /config): the widget to place in the form, whether the
 * form may be sent, the answer to send with it, and `renew` after each attempt (an answer counts once).
 */
export function useFormBotCheck() {
  const { botProtection } = useConfig();
  const [answer, setAnswer] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  const renew = useCallback(() => {
    setAnswer(null);
    setRound((n) => n + 1);
  }, []);
  const off = botProtection.provider === 'off';
  return {
    ready: off || answer !== null,
    body: answer ? { botCheck: answer } : {},
    renew,
    widget: (
      <BotCheck
        key={round}
        provider={botProtection.provider}
        siteKey={botProtection.siteKey}
        onChange={setAnswer}
      />
    ),
  };
}
