import { Alert, Button, Card, CardContent, Link, Stack, Typography } from '@mui/material';
import { normalizeLanguage, type PublicChat, visitorBodySchema } from '@werkwissen/shared';
import { COUNTRY_OF_LANGUAGE, toE164 } from '@werkwissen/shared/phone';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/http.ts';
import { useJoinPublicChat } from '../../api/public-chats.ts';
import { useConfig } from '../../app/config-context.tsx';
import { BotCheck } from '../../components/bot-check.tsx';
import { errorMessage, InputField } from '../../components/form.tsx';

type Field = 'name' | 'phone' | 'email';

/**
 * A new visitor of a public chat: the bot check, then an optional name and phone or e-mail, with who receives them,
 * what for, and the privacy notice. Joining sets the cookie that keeps the visitor's own thread, and the chat shows
 * the conversation.
 */
export function VisitorForm({
  token,
  botCheck,
  companyName,
  useJoin = useJoinPublicChat,
}: {
  token: string;
  botCheck: PublicChat['botCheck'];
  companyName: string | null;
  /** How the visitor joins: by the share link's page (a cookie), or in a website widget (a token it keeps). */
  useJoin?: typeof useJoinPublicChat;
}) {
  const { t, i18n } = useTranslation();
  const config = useConfig();
  // A national number is read in the country of the page's language ("0151 …" on a German page).
  const phoneCountry = COUNTRY_OF_LANGUAGE[normalizeLanguage(i18n.language) ?? config.defaultLanguage];
  const [values, setValues] = useState<Record<Field, string>>({ name: '', phone: '', email: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [payload, setPayload] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  // Every refusal is shown here: on its field, else above the button.
  const joining = useJoin(token, {
    claimError: (error) => {
      const fields: Partial<Record<Field, string>> = {};
      if (error instanceof ApiError)
        for (const f of error.fieldErrors) {
          const field = f.field.split('.')[0] as Field;
          if (field in values) fields[field] = f.code;
        }
      if (Object.keys(fields).length > 0) setErrors(fields);
      else setFailure(errorMessage(error, t));
      // A payload is good for one try: a fresh check follows a refusal.
      if (error instanceof ApiError && error.code === 'BOT_CHECK_FAILED') {
        setPayload(null);
        setAttempt((a) => a + 1);
      }
      return true;
    },
  });
  const ready = botCheck === 'off' || payload !== null;

  const join = () => {
    const body = {
      ...(botCheck !== 'off' && payload ? { botCheck: payload } : {}),
      name: values.name.trim() || null,
      phone: values.phone.trim() ? (toE164(values.phone, phoneCountry) ?? values.phone.trim()) : null,
      email: values.email.trim() || null,
    };
    const parsed = visitorBodySchema.safeParse(body);
    if (!parsed.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as Field] ??= issue.message;
      setErrors(next);
      return;
    }
    setFailure(null);
    joining.mutate(body);
  };

  const field = (name: Field, label: string, type: string, autoComplete: string) => (
    <InputField
      name={name}
      label={label}
      type={type}
      value={values[name]}
      autoComplete={autoComplete}
      onChange={(e) => {
        setValues((v) => ({ ...v, [name]: e.target.value }));
        setErrors((er) => ({ ...er, [name]: undefined }));
      }}
      errorKey={errors[name]}
      inputProps={{ maxLength: name === 'name' ? 120 : name === 'phone' ? 25 : 254 }}
    />
  );

  return (
    <Card>
      <CardContent>
        <Stack
          component="form"
          spacing={4}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (ready) join();
          }}
        >
          <Typography variant="h6" component="h2">
            {t('publicChat.welcome')}
          </Typography>
          <Typography color="text.secondary">
            {t(botCheck === 'off' ? 'publicChat.introNoCheck' : 'publicChat.intro')}
          </Typography>
          {failure && <Alert severity="error">{failure}</Alert>}
          <BotCheck
            key={attempt}
            provider={botCheck}
            siteKey={config.botProtection.siteKey}
            onChange={setPayload}
          />
          {field('name', t('publicChat.name'), 'text', 'name')}
          {field('phone', t('publicChat.phone'), 'tel', 'tel')}
          {field('email', t('publicChat.email'), 'email', 'email')}
          <Typography variant="body2" color="text.secondary" data-testid="visitor-privacy">
            {t('publicChat.contactHelp')}{' '}
            {companyName
              ? t('publicChat.privacyNotice', { company: companyName })
              : t('publicChat.privacyNoticeNoCompany')}
            {config.privacyUrl && (
              <>
                {' '}
                <Link href={config.privacyUrl} target="_blank" rel="noopener">
                  {t('publicChat.privacyLink')}
                </Link>
              </>
            )}
          </Typography>
          <Button
            type="submit"
            variant="contained"
            size="large"
            disabled={!ready}
            loading={joining.isPending}
          >
            {t('publicChat.start')}
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}
