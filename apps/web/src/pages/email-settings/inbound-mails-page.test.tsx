import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type EmailSetting, emailSettingContracts, type InboundMail } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, page } from '../../test/fake-api.ts';
import { DIVISION_ID } from '../../test/fixtures.ts';
import { renderWithApp, useLanguage } from '../../test/render.tsx';
import InboundMailsPage from './inbound-mails-page.tsx';

afterEach(() => vi.unstubAllGlobals());

const SETTING_ID = '6b1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5';
const CHAT_ID = '1c2d3e4f-5a6b-4c7d-8e9f-a0b1c2d3e4f5';

const setting: EmailSetting = {
  id: SETTING_ID,
  fromEmail: 'assistent@firma.example',
  allowedEmails: ['chefin@kunde.example'],
  divisionId: DIVISION_ID,
  divisionName: 'Heizung',
  isPrivate: false,
  smtpHost: 'smtp.firma.example',
  smtpPort: 587,
  imapHost: 'imap.firma.example',
  imapPort: 993,
  smtpEmail: 'assistent@firma.example',
  userName: 'assistent',
  security: 'starttls',
  authservId: '',
  answerFrom: '2025-03-01T09:00:00.000Z',
  hasPassword: true,
  mailbox: { checkedAt: '2025-03-01T10:00:00.000Z', error: null },
  createdAt: '2025-03-01T09:00:00.000Z',
};

const mail = (over: Partial<InboundMail>): InboundMail => ({
  id: '0a1b2c3d-4e5f-4a6b-8c7d-8e9fa0b1c2d3',
  from: 'chefin@kunde.example',
  subject: 'Heizkörper entlüften',
  receivedAt: '2025-03-02T08:00:00.000Z',
  fate: 'answered',
  reason: null,
  reasonText: null,
  answeredAt: '2025-03-02T08:00:02.000Z',
  retryAt: null,
  chatId: CHAT_ID,
  ...over,
});

/** The server: the settings list and the mails (the reason in the reader's language, as the server writes it). */
function fakeServer(mails: InboundMail[]) {
  const api = fakeApi()
    .on(emailSettingContracts.mails, ({ query }) =>
      page(
        mails.filter((m) => !query.fate || m.fate === query.fate),
        25,
      ),
    )
    .on(emailSettingContracts.list, () => ({ items: [setting] }));
  return () => api.calls(emailSettingContracts.mails).map((call) => call.url.search);
}

describe('the incoming mails of a mailbox', () => {
  it('shows each mail with what became of it, in German, and filters by fate', async () => {
    await useLanguage('de');
    const mails = [
      mail({}),
      mail({
        id: '1a1b2c3d-4e5f-4a6b-8c7d-8e9fa0b1c2d3',
        from: 'fremd@andere.example',
        subject: 'Angebot',
        fate: 'ignored',
        reason: 'not-allowed',
        reasonText: 'Der Absender ist keine der erlaubten E-Mails',
        answeredAt: null,
        chatId: null,
      }),
      mail({
        id: '2a1b2c3d-4e5f-4a6b-8c7d-8e9fa0b1c2d3',
        subject: 'Noch eine Frage',
        fate: 'failed',
        reason: 'send-failed',
        reasonText:
          'Ihr Mailserver hat die Antwort bei jedem Versuch abgelehnt; der Absender wurde benachrichtigt',
        answeredAt: null,
      }),
    ];
    const asked = fakeServer(mails);
    renderWithApp(<InboundMailsPage />, `/email-settings/${SETTING_ID}/mails`);
    expect(await screen.findByRole('heading', { name: 'Eingegangene Mails' })).toBeTruthy();
    const ignored = within((await screen.findByText('Angebot')).closest('tr')!);
    expect(ignored.getByText('Ignoriert')).toBeTruthy();
    expect(ignored.getByText('Der Absender ist keine der erlaubten E-Mails')).toBeTruthy();
    const answered = within(screen.getByText('Heizkörper entlüften').closest('tr')!);
    expect(answered.getByText('Beantwortet')).toBeTruthy();
    expect(answered.getByRole('link').getAttribute('href')).toBe(`/chat?chat=${CHAT_ID}`);
    // Its accessible name starts with the subject it shows (WCAG 2.5.3, label in name), then says what it opens.
    expect(
      answered.getByRole('link', { name: 'Heizkörper entlüften – Unterhaltung öffnen' }).textContent,
    ).toBe('Heizkörper entlüften');
    expect(
      await screen.findByText(
        /Jede Mail, die der Assistent aus \u2068assistent@firma\.example\u2069 gelesen hat/,
      ),
    ).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'failed' } });
    await waitFor(() => expect(asked().at(-1)).toContain('fate=failed'));
    await waitFor(() => expect(screen.queryByText('Angebot')).toBeNull());
    expect(screen.getByText('Fehlgeschlagen', { selector: 'td *' })).toBeTruthy();
  });

  it('shows a waiting mail and its reason in Arabic', async () => {
    await useLanguage('ar');
    fakeServer([
      mail({
        fate: 'waiting',
        reason: 'rate-limited',
        reasonText: 'تجاوزت الحد بالساعة لهذا المرسِل (20) أو لهذه المحادثة (5): يُرَدّ عليها لاحقًا',
        answeredAt: null,
        retryAt: '2025-03-02T09:00:00.000Z',
      }),
    ]);
    renderWithApp(<InboundMailsPage />, `/email-settings/${SETTING_ID}/mails`);
    expect(await screen.findByRole('heading', { name: 'الرسائل الواردة' })).toBeTruthy();
    const row = within((await screen.findByText('Heizkörper entlüften')).closest('tr')!);
    expect(row.getByText('قيد الانتظار')).toBeTruthy();
    expect(row.getByText(/يُرَدّ عليها لاحقًا/)).toBeTruthy();
  });
});
