import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { adminContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Answer, apiError, fakeApi, page, reply } from '../../test/fake-api.ts';
import { signedInAs } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import EmailDetailPage from './email-detail-page.tsx';
import EmailsPage from './emails-page.tsx';

afterEach(() => vi.unstubAllGlobals());

const ID = '7d1f0c2e-0000-4000-8000-000000000001';
const COPY = '7d1f0c2e-0000-4000-8000-000000000002';
const mail: Answer<typeof adminContracts.listEmails>['items'][number] = {
  id: ID,
  to: 'kai@firma.example',
  template: 'setPassword',
  language: 'de',
  subject: 'Einladung zu Werkwissen',
  status: 'failed',
  statusReason: '550 mailbox unavailable',
  attempts: 5,
  createdAt: '2026-03-04T08:00:00.000Z',
  sentAt: null,
};

const LINK = 'https://wissen.example/setPassword?token=abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ';

function stubServer() {
  return fakeApi()
    .on(adminContracts.listEmails, () => page([mail]))
    .on(adminContracts.listEmailSenders, () =>
      page([
        {
          companyId: '7d1f0c2e-0000-4000-8000-0000000000c1',
          companyName: 'Firma Nord',
          trial: true,
          lastHour: 3,
          lastDay: 7,
          perHour: 20,
          perDay: 50,
          lastMailAt: '2026-03-04T08:00:00.000Z',
        },
      ]),
    )
    .on(adminContracts.revealEmailLink, ({ body: { code } }) =>
      code === '123456'
        ? { link: LINK }
        : apiError(422, 'TWO_FACTOR_CODE_INVALID', 'This code is not valid.'),
    )
    .on(adminContracts.resendEmail, () =>
      reply(adminContracts.resendEmail, 202, {
        message: 'The email to kai@firma.example is queued.',
        emailId: COPY,
      }),
    )
    .on(adminContracts.getEmail, ({ params: { emailId } }) => {
      if (emailId !== ID && emailId !== COPY) return apiError(404, 'NOT_FOUND', 'Not found.');
      return {
        ...mail,
        id: emailId,
        text: 'Hallo Kai,\nbitte Passwort setzen: https://wissen.example/setPassword?token=••••••••',
        html: '<p>Hallo Kai</p><script>parent.alert(1)</script>',
        hiddenLink: true,
      };
    });
}

describe('the e-mail log', () => {
  it('lists status, reason and attempts, filters by status and links each mail', async () => {
    signedInAs('Administrator');
    const api = stubServer();
    renderWithApp(<EmailsPage />, '/admin/emails');

    const subject = await screen.findByText('Einladung zu Werkwissen');
    const row = within(subject.closest('tr')!);
    expect(row.getByText('Failed')).toBeTruthy();
    // Who sends how much, beside their limits.
    const sender = within((await screen.findByText('Firma Nord')).closest('tr')!);
    expect(sender.getByText('3 of 20')).toBeTruthy();
    expect(sender.getByText('7 of 50')).toBeTruthy();
    expect(sender.getByText('Trial')).toBeTruthy();
    expect(row.getByText('550 mailbox unavailable')).toBeTruthy();
    expect(row.getByText('5')).toBeTruthy();
    expect(row.getByText('Invitation')).toBeTruthy();
    expect(subject.closest('a')!.getAttribute('href')).toBe(`/admin/emails/${ID}`);

    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'failed' } });
    await waitFor(() =>
      expect(
        api.requests.some((r) => new URL(r.url, 'http://x').searchParams.get('status') === 'failed'),
      ).toBe(true),
    );
  });

  it('shows the mail in a sandboxed frame and as text, and resends it after confirmation', async () => {
    signedInAs('Administrator');
    const api = stubServer();
    renderWithApp(<EmailDetailPage />, `/admin/emails/${ID}`);

    await screen.findByText('Einladung zu Werkwissen');
    const frame = screen.getByTitle('HTML') as HTMLIFrameElement;
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('srcdoc')).toContain('<p>Hallo Kai</p>');
    fireEvent.click(screen.getByRole('tab', { name: 'Text' }));
    expect(await screen.findByText(/bitte Passwort setzen/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Send again' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send this email again?' });
    expect(within(dialog).getByText(/kai@firma\.example as a new email/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send again' }));
    await waitFor(() =>
      expect(api.requests.map(({ url, method }) => ({ url, method }))).toContainEqual({
        url: `/api/v1/admin/emails/${ID}/resend`,
        method: 'POST',
      }),
    );
    expect(await screen.findByText('The email to kai@firma.example is queued.')).toBeTruthy();
  });

  it('offers no resend to staff, who only read the log and see the single-use link masked', async () => {
    signedInAs('Staff');
    stubServer();
    renderWithApp(<EmailDetailPage />, `/admin/emails/${ID}`);
    await screen.findByText('Einladung zu Werkwissen');
    expect(screen.queryByRole('button', { name: 'Send again' })).toBeNull();
    expect(screen.getByText(/The single-use link in this email is hidden/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Show link' })).toBeNull();
  });

  it("lets the administrator show an undelivered mail's link with a code of the authenticator app", async () => {
    signedInAs('Administrator');
    const api = stubServer();
    renderWithApp(<EmailDetailPage />, `/admin/emails/${ID}`);
    await screen.findByText(/did not reach its recipient/);
    fireEvent.click(screen.getByRole('button', { name: 'Show link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Show the single-use link' });
    expect(within(dialog).getByText(/Whoever opens this link acts as kai@firma\.example/)).toBeTruthy();
    const code = within(dialog).getByLabelText('Authentication code');
    fireEvent.change(code, { target: { value: '000000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Show link' }));
    expect(await within(dialog).findByText(/This code is not valid/)).toBeTruthy();
    fireEvent.change(code, { target: { value: '123 456' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Show link' }));
    expect(await within(dialog).findByDisplayValue(LINK)).toBeTruthy();
    expect(api.requests.map(({ url, method }) => ({ url, method }))).toContainEqual({
      url: `/api/v1/admin/emails/${ID}/reveal-link`,
      method: 'POST',
    });
    expect(api.calls(adminContracts.revealEmailLink).map((c) => c.body)).toContainEqual({ code: '123456' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByDisplayValue(LINK)).toBeNull());
  });

  it('says so for a mail that does not exist', async () => {
    signedInAs('Administrator');
    stubServer();
    renderWithApp(<EmailDetailPage />, '/admin/emails/not-a-mail');
    expect(await screen.findByText('This email does not exist or has been removed.')).toBeTruthy();
  });
});
