import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  type DocumentMail,
  type DocumentMailDraft,
  type SalesDocumentSummary,
  salesDocumentContracts,
} from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Answer, apiError, fakeApi, reply } from '../../test/fake-api.ts';
import { renderWithApp } from '../../test/render.tsx';
import { SendDocumentDialog } from './send-document-dialog.tsx';

afterEach(() => vi.unstubAllGlobals());

const invoice: SalesDocumentSummary = {
  id: '2c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5',
  type: 'invoice',
  status: 'sent',
  number: 'RE-2026-0001',
  customerId: '1c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5',
  customerName: 'Familie Schneider',
  title: 'Heizungswartung',
  language: 'de',
  invoiceKind: 'standard',
  issueDate: '2026-03-02',
  dueDate: '2026-03-16',
  netCents: 17025,
  grossCents: 20260,
  amountDueCents: 20260,
  createdAt: '2026-03-02T08:00:00.000Z',
};

const mailDraft: DocumentMailDraft = {
  to: 'schneider@kunde.example',
  subject: 'Rechnung RE-2026-0001 von Müller Haustechnik GmbH',
  message: 'Guten Tag,\n\nanbei erhalten Sie unsere Rechnung RE-2026-0001.',
  attachments: ['pdf', 'facturX', 'xrechnung'],
  replyTo: 'buero@mueller-haustechnik.example',
};

const earlier: DocumentMail = {
  id: '4c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5',
  to: 'alt@kunde.example',
  subject: mailDraft.subject,
  status: 'failed',
  attachments: ['RE-2026-0001.pdf'],
  createdAt: '2026-03-02T09:00:00.000Z',
  sentAt: null,
};

function stubServer(
  draft: () => Answer<typeof salesDocumentContracts.mailDraft> | ReturnType<typeof apiError> = () =>
    mailDraft,
) {
  return fakeApi()
    .on(salesDocumentContracts.mailDraft, draft)
    .on(salesDocumentContracts.mails, () => ({ items: [earlier] }))
    .on(salesDocumentContracts.sendMail, () =>
      reply(salesDocumentContracts.sendMail, 202, {
        ...earlier,
        id: '5c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5',
        to: 'chefin@kunde.example',
        status: 'queued',
      }),
    );
}

describe('sending a document by e-mail', () => {
  it('starts from the server’s draft, sends what the user changed with the chosen attachment, and lists earlier mails', async () => {
    const api = stubServer();
    const onClose = vi.fn();
    renderWithApp(<SendDocumentDialog document={invoice} onClose={onClose} />, '/handwerk');
    const dialog = await screen.findByRole('dialog', { name: 'Send Invoice RE-2026-0001' });
    const to = await within(dialog).findByRole('textbox', { name: 'To' });
    expect((to as HTMLInputElement).value).toBe('schneider@kunde.example');
    expect(
      within(dialog).getByText("Your customer's replies go to buero@mueller-haustechnik.example."),
    ).toBeTruthy();
    // An invoice goes with its e-invoice unless the user chooses otherwise.
    expect((within(dialog).getByRole('radio', { name: /Factur-X/ }) as HTMLInputElement).checked).toBe(true);
    const history = within(dialog).getByRole('list', { name: 'Sent e-mails' });
    expect(within(history).getByText('alt@kunde.example')).toBeTruthy();
    expect(within(history).getByText('Failed')).toBeTruthy();

    fireEvent.change(to, { target: { value: 'Chefin@Kunde.example' } });
    fireEvent.click(within(dialog).getByRole('radio', { name: /XRechnung/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(api.requests.some((r) => r.method === 'POST')).toBe(true));
    expect(api.requests.filter((r) => r.method === 'POST').map((r) => r.url)).toEqual([
      `/api/v1/handwerk/documents/${invoice.id}/mails`,
    ]);
    expect(api.last(salesDocumentContracts.sendMail)?.body).toEqual({
      to: 'chefin@kunde.example',
      subject: mailDraft.subject,
      message: mailDraft.message,
      attach: 'xrechnung',
    });
    expect(await screen.findByText('The e-mail to chefin@kunde.example is on its way.')).toBeTruthy();
    expect(onClose).toHaveBeenCalled();
  });

  it('shows the field’s message for a wrong address and sends nothing', async () => {
    const api = stubServer();
    renderWithApp(<SendDocumentDialog document={invoice} onClose={() => {}} />, '/handwerk');
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(await within(dialog).findByRole('textbox', { name: 'To' }), {
      target: { value: 'kein-name' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('Email must be valid!')).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('says why when the server cannot send mail, with the send button off', async () => {
    stubServer(() => apiError(409, 'MAIL_NOT_CONFIGURED', 'Sending e-mail is not set up on this server.'));
    renderWithApp(<SendDocumentDialog document={invoice} onClose={() => {}} />, '/handwerk');
    const dialog = await screen.findByRole('dialog');
    expect(
      await within(dialog).findByText(
        'Sending e-mail is not set up on this server. Ask the operator to configure an SMTP server.',
      ),
    ).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
