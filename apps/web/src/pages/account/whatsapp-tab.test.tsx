import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { chatContracts, type WhatsAppConnection, whatsappContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, page } from '../../test/fake-api.ts';
import { signedInAs } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { chat } from '../chat/chat-test-data.ts';
import { WhatsAppTab } from './whatsapp-tab.tsx';

afterEach(() => vi.unstubAllGlobals());

const PUBLIC_CHAT = chat({
  id: '5f4e3d2c-1b0a-4987-8765-43210fedcba9',
  name: 'Kundendienst',
  visibility: 'public',
});

const proposal: WhatsAppConnection = {
  connected: false,
  phoneNumberId: '',
  businessAccountId: '',
  accessTokenHint: '',
  appSecretHint: '',
  verifyToken: 'Vt_generated-token-123456',
  webhookUrl: 'https://wissen.example/api/v1/webhooks/whatsapp/abcdefghijklmnopqrstuvwxyz012345',
  unknownNumbers: 'refuse',
  publicChatId: null,
  updatedAt: null,
};

function stubServer(initial: WhatsAppConnection) {
  let stored = initial;
  const api = fakeApi()
    .on(whatsappContracts.test, () => ({
      ok: true,
      displayPhoneNumber: '+49 30 1234567',
      verifiedName: 'Müller GmbH',
      message: null,
    }))
    .on(whatsappContracts.save, ({ data }) => {
      const { accessToken: _token, appSecret: _secret, ...settings } = data;
      stored = { ...stored, ...settings, connected: true, accessTokenHint: '…oken', appSecretHint: '…cret' };
      return stored;
    })
    .on(whatsappContracts.remove, () => {
      stored = proposal;
      return undefined;
    })
    .on(whatsappContracts.get, () => stored)
    .on(chatContracts.list, () => page([chat(), PUBLIC_CHAT], 100));
  return {
    saved: () => api.calls(whatsappContracts.save).map((call) => call.body),
    removals: () => api.calls(whatsappContracts.remove),
  };
}

describe('the WhatsApp tab', () => {
  it('connects a number with the generated verify token, tests it and offers the public chats for strangers', async () => {
    signedInAs('DataManager');
    const { saved } = stubServer(proposal);
    renderWithApp(<WhatsAppTab />);
    expect(await screen.findByText('No WhatsApp number is connected yet.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Connect WhatsApp' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect((dialog.getByLabelText('Webhook URL') as HTMLInputElement).value).toBe(proposal.webhookUrl);
    expect((dialog.getByLabelText('Verify token') as HTMLInputElement).value).toBe(proposal.verifyToken);

    // Nothing is sent while the ids are not Meta's numbers or the secrets are missing.
    fireEvent.change(dialog.getByLabelText(/Phone-number ID/), { target: { value: 'abc' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save changes' }));
    expect(await dialog.findAllByText('Enter the numeric ID from Meta.')).toHaveLength(2);
    expect(dialog.getAllByText('This field is required').length).toBeGreaterThan(0);
    expect(saved()).toEqual([]);

    fireEvent.change(dialog.getByLabelText(/Phone-number ID/), { target: { value: '106540352242922' } });
    fireEvent.change(dialog.getByLabelText(/WhatsApp Business Account ID/), {
      target: { value: '102290129340398' },
    });
    fireEvent.change(dialog.getByLabelText(/Access token/), { target: { value: 'EAAG-access-token' } });
    fireEvent.change(dialog.getByLabelText(/App secret/), { target: { value: 'app-secret' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Test connection' }));
    expect(await dialog.findByText('Meta knows this number: +49 30 1234567 (Müller GmbH).')).toBeTruthy();

    fireEvent.mouseDown(dialog.getByLabelText('Messages from unknown numbers'));
    fireEvent.click(await screen.findByRole('option', { name: 'Answer from a public chat' }));
    fireEvent.mouseDown(dialog.getByLabelText(/Public chat for unknown numbers/));
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Kundendienst']);
    fireEvent.click(options[0]!);
    fireEvent.click(dialog.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(saved()).toHaveLength(1));
    expect(saved()[0]).toEqual({
      phoneNumberId: '106540352242922',
      businessAccountId: '102290129340398',
      accessToken: 'EAAG-access-token',
      appSecret: 'app-secret',
      verifyToken: proposal.verifyToken,
      unknownNumbers: 'publicChat',
      publicChatId: PUBLIC_CHAT.id,
    });
    expect(await screen.findByText('WhatsApp connection saved.')).toBeTruthy();
    expect(await screen.findByText('Connected: phone-number ID 106540352242922')).toBeTruthy();
  });

  it('keeps the saved secrets when their fields stay empty, and disconnects after confirmation', async () => {
    signedInAs('DataManager');
    const { saved, removals } = stubServer({
      ...proposal,
      connected: true,
      phoneNumberId: '106540352242922',
      businessAccountId: '102290129340398',
      accessTokenHint: '…oken',
      appSecretHint: '…cret',
    });
    renderWithApp(<WhatsAppTab />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit connection' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText('Saved: …oken. Leave empty to keep it.')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(saved()).toHaveLength(1));
    expect(saved()[0]).not.toHaveProperty('accessToken');
    expect(saved()[0]).not.toHaveProperty('appSecret');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Disconnect' }));
    const confirm = within(await screen.findByRole('dialog'));
    expect(confirm.getByText(/Messages to it will no longer be answered/)).toBeTruthy();
    fireEvent.click(confirm.getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(removals()).toHaveLength(1));
    expect(await screen.findByText('No WhatsApp number is connected yet.')).toBeTruthy();
  });
});
