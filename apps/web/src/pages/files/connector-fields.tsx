import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { InputField, PasswordField } from '../../components/form.tsx';
import { SelectField } from '../../components/select-field.tsx';

/** The schedules offered for a connector, in minutes (`connectors.intervals.<n>`). */
const CONNECTOR_INTERVALS = ['15', '60', '360', '1440'];

/** The file types typed as "pdf, docx" (the server drops dots and upper case). */
export const fileTypesOf = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** What a connector reads and how often: its file types and its schedule, when connecting and when changing it. */
export function ScheduleFields({
  id,
  fileTypes,
  fileTypesError,
  interval,
  onInterval,
}: {
  /** The schedule select's id, unique on the page. */
  id: string;
  fileTypes: UseFormRegisterReturn<'fileTypes'>;
  fileTypesError?: string;
  interval: string;
  onInterval(minutes: string): void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <InputField
        label={t('connectors.fields.fileTypes')}
        helperText={t('connectors.fields.fileTypesHelp')}
        errorKey={fileTypesError}
        {...fileTypes}
      />
      <SelectField
        id={id}
        label={t('connectors.fields.interval')}
        value={interval}
        onChange={onInterval}
        options={CONNECTOR_INTERVALS.map((m) => ({ value: m, label: t(`connectors.intervals.${m}`) }))}
        size="medium"
      />
    </>
  );
}

/** A WebDAV server's login, when connecting and when changing it (`passwordHelp`: an empty password keeps the saved one). */
export function LoginFields({
  userName,
  userNameError,
  password,
  passwordError,
  passwordHelp,
}: {
  userName: UseFormRegisterReturn<'userName'>;
  userNameError?: string;
  password: UseFormRegisterReturn<'password'>;
  passwordError?: string;
  passwordHelp?: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <InputField
        label={t('connectors.fields.userName')}
        errorKey={userNameError}
        autoComplete="off"
        {...userName}
      />
      <PasswordField
        label={t('connectors.fields.password')}
        helperText={passwordHelp}
        errorKey={passwordError}
        autoComplete="new-password"
        {...password}
      />
    </>
  );
}
