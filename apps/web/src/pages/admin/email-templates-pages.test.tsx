import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { emailTemplateContracts, LANGUAGES } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Answer, apiError, fakeApi, reply } from '../../test/fake-api.ts';
import { signedInAs } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import EmailTemplateEditPage from './email-template-edit-page.tsx';
import EmailTemplatesPage from './email-templates-page.tsx';

afterEach(() => vi.unstubAllGlobals());

const template: Answer<typeof emailTemplateContracts.get> = {
  kind: 'setPassword',
  variables: [
    { name: 'name', required: false, list: false, description: "The recipient's first name" },
    { name: 'actionUrl', required: true, list: false, description: 'The link the email exists for' },
  ],
  languages: LANGUAGES.map((language) => ({
    language,
    subject: `Invitation (${language})`,
    body: `Hello {{name}},\n\n[Set password]({{actionUrl}})`,
    edited: language === 'en',
    updatedAt: language === 'en' ? '2026-03-01T10:00:00.000Z' : null,
  })),
};

function stubServer(refuseSave = false) {
  const english = template.languages[2]!;
  return fakeApi()
    .on(emailTemplateContracts.list, () => ({
      items: [
        {
          kind: 'setPassword',
          editedLanguages: ['en'],
          defaultLanguages: [],
          updatedAt: '2026-03-01T10:00:00.000Z',
        },
        { kind: 'welcome', editedLanguages: [], defaultLanguages: [], updatedAt: null },
      ],
    }))
    .on(emailTemplateContracts.get, ({ params: { kind } }) =>
      kind === 'setPassword' ? template : apiError(404, 'NOT_FOUND', 'Not found.'),
    )
    .on(emailTemplateContracts.preview, ({ body }) => {
      if (body.body.includes('{{unknown}}'))
        return apiError(422, 'TEMPLATE_VARIABLE_UNKNOWN', '', { field: 'body', variable: 'unknown' });
      return { subject: `Rendered: ${body.subject}`, text: body.body, html: `<p>${body.body}</p>` };
    })
    .on(emailTemplateContracts.update, () =>
      refuseSave
        ? apiError(422, 'TEMPLATE_VARIABLE_UNKNOWN', '', { field: 'body', variable: 'firma' })
        : { ...english, edited: true },
    )
    .on(emailTemplateContracts.reset, () => ({ ...english, edited: false }))
    .on(emailTemplateContracts.sendTest, () =>
      reply(emailTemplateContracts.sendTest, 202, {
        message: 'A test email is on its way to you.',
        emailId: '7d1f0c2e-0000-4000-8000-000000000003',
      }),
    );
}

describe('the e-mail templates', () => {
  it('lists every kind with its changed languages and links each to its editor', async () => {
    signedInAs('Administrator');
    stubServer();
    renderWithApp(<EmailTemplatesPage />, '/admin/email-templates');
    const invitation = await screen.findByRole('link', { name: 'Invitation' });
    expect(invitation.getAttribute('href')).toBe('/admin/email-templates/template/setPassword');
    expect(within(invitation.closest('tr')!).getByText('English')).toBeTruthy();
    const welcome = screen.getByRole('link', { name: 'Welcome' });
    expect(within(welcome.closest('tr')!).getByText('Product text in every language')).toBeTruthy();
  });

  it('inserts a variable at the cursor, previews the draft and saves it', async () => {
    signedInAs('Administrator');
    const api = stubServer();
    renderWithApp(<EmailTemplateEditPage />, '/admin/email-templates/template/setPassword');

    const subject = (await screen.findByLabelText('Subject')) as HTMLInputElement;
    expect(subject.value).toBe('Invitation (en)');
    fireEvent.change(subject, { target: { value: 'Welcome ' } });
    fireEvent.focus(subject);
    subject.setSelectionRange(8, 8);
    fireEvent.click(screen.getByRole('button', { name: /^Insert name/ }));
    expect(subject.value).toBe('Welcome {{name}}');

    // The preview follows the draft after a pause, rendered by the server, in a sandboxed frame.
    expect(await screen.findByText('Rendered: Welcome {{name}}')).toBeTruthy();
    expect(screen.getByTitle('Preview with sample data').getAttribute('sandbox')).toBe('');

    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => {
      const put = api.calls(emailTemplateContracts.update)[0];
      expect({ url: put?.url.pathname, body: put?.body }).toMatchObject({
        url: '/api/v1/admin/email-templates/setPassword/en',
        body: { subject: 'Welcome {{name}}', body: template.languages[2]!.body },
      });
    });
  });

  it('shows the server’s refusal of an unknown variable at the body, while previewing and when saving', async () => {
    signedInAs('Administrator');
    stubServer(true);
    renderWithApp(<EmailTemplateEditPage />, '/admin/email-templates/template/setPassword');
    const body = (await screen.findByLabelText('Text')) as HTMLTextAreaElement;

    fireEvent.change(body, { target: { value: 'Hi {{unknown}} [Go]({{actionUrl}})' } });
    expect(
      await screen.findByText(
        'This template has no variable “unknown”. Use only the variables listed for it.',
      ),
    ).toBeTruthy();

    fireEvent.change(body, { target: { value: 'Hi {{firma}} [Go]({{actionUrl}})' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(
      await screen.findByText('This template has no variable “firma”. Use only the variables listed for it.'),
    ).toBeTruthy();
  });

  it('switches language, sends a test of the saved text and resets after confirmation', async () => {
    signedInAs('Administrator');
    const api = stubServer();
    renderWithApp(<EmailTemplateEditPage />, '/admin/email-templates/template/setPassword');
    await screen.findByLabelText('Subject');

    fireEvent.click(screen.getByRole('button', { name: 'Send test to me' }));
    await waitFor(() =>
      expect(api.requests).toContainEqual(
        expect.objectContaining({ url: '/api/v1/admin/email-templates/setPassword/en/test', method: 'POST' }),
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Reset to default' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset this language to the default text?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset to default' }));
    await waitFor(() =>
      expect(api.requests).toContainEqual(
        expect.objectContaining({ url: '/api/v1/admin/email-templates/setPassword/en', method: 'DELETE' }),
      ),
    );

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('tab', { name: 'Deutsch' }));
    expect(((await screen.findByDisplayValue('Invitation (de)')) as HTMLInputElement).value).toBe(
      'Invitation (de)',
    );
    // German was never changed: nothing to reset.
    expect((screen.getByRole('button', { name: 'Reset to default' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });
});
