import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { DocumentMail, DocumentMailDraft, SalesDocumentSummary } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
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

function stubServer(draftResponse: () => Response = () => Response.json(mailDraft)) {
  const calls: { method: string; url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : null });
      if (url.endsWith('/mail-draft')) return draftResponse();
      if (url.endsWith('/mails') && method === 'GET') return Response.json({ items: [earlier] });
      if (url.endsWith('/mails'))
        return Response.json(
          { ...earlier, id: 'new', to: 'chefin@kunde.example', status: 'queued' },
          { status: 202 },
        );
      return Response.json({ error: { code: 'NOT_FOUND', message: 'Not found.' } }, { status: 404 });
    }),
  );
  return calls;
}

describe('sending a document by e-mail', { timeout: 20_000 }, () => {
  it('starts from the server’s draft, sends what the user changed with the chosen attachment, and lists earlier mails', async () => {
    const calls = stubServer();
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
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')).toEqual({
      method: 'POST',
      url: `/api/v1/handwerk/documents/${invoice.id}/mails`,
      body: {
        to: 'chefin@kunde.example',
        subject: mailDraft.subject,
        message: mailDraft.message,
        attach: 'xrechnung',
      },
    });
    expect(await screen.findByText('The e-mail to chefin@kunde.example is on its way.')).toBeTruthy();
    expect(onClose).toHaveBeenCalled();
  });

  it('shows the field’s message for a wrong address and sends nothing', async () => {
    const calls = stubServer();
    renderWithApp(<SendDocumentDialog document={invoice} onClose={() => {}} />, '/handwerk');
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(await within(dialog).findByRole('textbox', { name: 'To' }), {
      target: { value: 'kein-name' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('Email must be valid!')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('says why when the server cannot send mail, with the send button off', async () => {
    stubServer(() =>
      Response.json(
        { error: { code: 'MAIL_NOT_CONFIGURED', message: 'Sending e-mail is not set up on this server.' } },
        { status: 409 },
      ),
    );
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
