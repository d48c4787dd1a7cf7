import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type AiProviderSettings, aiProviderContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../test/fake-api.ts';
import { renderWithApp } from '../../test/render.tsx';
import AiProvidersPage from './ai-providers-page.tsx';

afterEach(() => vi.unstubAllGlobals());

const MASK = 'sk-…7f3a';

function openai(overrides: Partial<AiProviderSettings> = {}): AiProviderSettings {
  return {
    provider: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    model: 'gpt-4o-mini',
    transcriptionModel: 'whisper-1',
    apiKeyMasked: MASK,
    isDefault: true,
    updatedAt: '2025-03-01T09:30:00.000Z',
    ...overrides,
  };
}

function stubServer(saved: AiProviderSettings[]) {
  let items = saved;
  const api = fakeApi()
    .on(aiProviderContracts.list, () => ({ items }))
    .on(aiProviderContracts.test, ({ params: { provider } }) => {
      if (provider === 'openai')
        return { ok: true, models: ['gpt-4o', 'gpt-4o-mini', 'whisper-1'], message: null };
      if (provider === 'mistral') return { ok: false, models: [], message: 'The key was refused (401).' };
      return apiError(404, 'NOT_FOUND', 'Not found.');
    })
    .on(aiProviderContracts.save, ({ body }) => {
      const next = openai({
        ...(body as Partial<AiProviderSettings>),
        updatedAt: '2025-03-02T10:00:00.000Z',
      });
      items = [next];
      return next;
    })
    .on(aiProviderContracts.remove, () => {
      items = [];
    });
  /** Every request as its address, method and the body sent, grouped by operation, oldest first. */
  return () =>
    [...new Set(api.requests.map((request) => request.contract))].flatMap((contract) =>
      contract
        ? api.calls(contract).map((call) => ({
            url: `${call.url.pathname}${call.url.search}`,
            method: contract.method,
            body: call.body as Record<string, unknown> | undefined,
          }))
        : [],
    );
}

const keyField = () => screen.getByLabelText('API key') as HTMLInputElement;

describe('the AI providers page', () => {
  it('shows which providers are set up and only the mask of a saved key', async () => {
    stubServer([openai()]);
    renderWithApp(<AiProvidersPage />, '/ai-providers');

    const card = await screen.findByTestId('provider-card-openai');
    await within(card).findByText('Configured');
    expect(within(card).getByText('Default')).toBeTruthy();
    expect(within(screen.getByTestId('provider-card-compatible')).getByText('Not configured')).toBeTruthy();
    expect(screen.getByText('OpenAI-compatible (vLLM etc.)')).toBeTruthy();

    await screen.findByRole('heading', { name: 'Settings for OpenAI' });
    expect(keyField().value).toBe('');
    expect(keyField().type).toBe('password');
    expect(screen.getByTestId('saved-key').textContent).toContain(MASK);
    expect(screen.getByText('Leave this field empty to keep the saved key.')).toBeTruthy();
    expect(
      screen.getByText('API keys are stored encrypted on the server and are never shown again after saving.'),
    ).toBeTruthy();
    expect((screen.getByLabelText('Base URL') as HTMLInputElement).value).toBe('https://api.openai.com/v1');
  });

  it('tests the connection with the typed values, offers the models found and saves without echoing the key', async () => {
    const calls = stubServer([openai()]);
    renderWithApp(<AiProvidersPage />, '/ai-providers');
    await screen.findByRole('heading', { name: 'Settings for OpenAI' });

    fireEvent.input(screen.getByLabelText('Base URL'), { target: { value: 'https://proxy.example.com/v1' } });
    fireEvent.input(keyField(), { target: { value: 'sk-live-very-secret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));

    await screen.findByText('The connection works. Models available: 3');
    const test = calls().find((c) => c.url.endsWith('/test'))!;
    expect(test.method).toBe('POST');
    expect(test.url).toBe('/api/v1/ai-providers/openai/test');
    expect(test.body).toMatchObject({
      baseUrl: 'https://proxy.example.com/v1',
      apiKey: 'sk-live-very-secret',
      model: 'gpt-4o-mini',
    });
    expect(calls().every((c) => !c.url.includes('secret'))).toBe(true);

    // The models the test found are offered for the model field.
    const model = screen.getByLabelText('Model') as HTMLInputElement;
    fireEvent.input(model, { target: { value: 'gpt-4o' } });
    fireEvent.keyDown(model, { key: 'ArrowDown' });
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toContain('gpt-4o-mini');
    fireEvent.click(screen.getByRole('option', { name: 'gpt-4o' }));

    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText('Settings for OpenAI saved.');
    const put = calls().find((c) => c.method === 'PUT')!;
    expect(put.url).toBe('/api/v1/ai-providers/openai');
    expect(put.body).toMatchObject({ apiKey: 'sk-live-very-secret', model: 'gpt-4o', isDefault: true });
    await waitFor(() => expect(keyField().value).toBe(''));
    expect(screen.getByTestId('saved-key').textContent).toContain(MASK);
    expect(document.body.textContent).not.toContain('sk-live-very-secret');
  });

  it('keeps the saved key when the key field is left empty', async () => {
    const calls = stubServer([openai()]);
    renderWithApp(<AiProvidersPage />, '/ai-providers');
    await screen.findByRole('heading', { name: 'Settings for OpenAI' });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText('Settings for OpenAI saved.');
    const put = calls().find((c) => c.method === 'PUT')!;
    expect(put.body).not.toHaveProperty('apiKey');
  });

  it('asks for the key again when the base URL changes, before testing or saving', async () => {
    const calls = stubServer([openai()]);
    renderWithApp(<AiProvidersPage />, '/ai-providers');
    await screen.findByRole('heading', { name: 'Settings for OpenAI' });
    expect(keyField().required).toBe(false);

    fireEvent.input(screen.getByLabelText('Base URL'), { target: { value: 'https://proxy.example.com/v1' } });
    await screen.findByText(
      'The address has changed: enter the key again. A saved key is only sent to the address it was saved for.',
    );
    expect(keyField().required).toBe(true);
    expect(screen.queryByTestId('saved-key')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await screen.findByText('Enter the key again for the new address.');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(keyField().getAttribute('aria-invalid')).toBe('true'));
    expect(calls().some((c) => c.url.endsWith('/test') || c.method === 'PUT')).toBe(false);

    // The same address again needs no key.
    fireEvent.input(screen.getByLabelText('Base URL'), { target: { value: 'https://api.openai.com/v1/' } });
    await screen.findByText('Leave this field empty to keep the saved key.');
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await screen.findByText('The connection works. Models available: 3');
    expect(calls().find((c) => c.url.endsWith('/test'))!.body).not.toHaveProperty('apiKey');
  });

  it('says that an optional saved key does not go to a new address', async () => {
    stubServer([
      openai({ provider: 'ollama', baseUrl: 'http://ollama.internal:11434/v1', isDefault: false }),
    ]);
    renderWithApp(<AiProvidersPage />, '/ai-providers');
    await screen.findByRole('heading', { name: 'Settings for Ollama (local)' });
    fireEvent.input(screen.getByLabelText('Base URL'), { target: { value: 'http://gpu.internal:11434/v1' } });
    await screen.findByText(
      'The address has changed: the saved key will not be sent to the new address. Enter it again if the server needs one.',
    );
    expect(keyField().required).toBe(false);
  });

  it('shows why a connection test failed', async () => {
    const calls = stubServer([openai()]);
    renderWithApp(<AiProvidersPage />, '/ai-providers');
    await screen.findByRole('heading', { name: 'Settings for OpenAI' });
    fireEvent.click(screen.getByRole('button', { name: 'Set up: Mistral' }));
    await screen.findByRole('heading', { name: 'Settings for Mistral' });
    expect((screen.getByLabelText('Base URL') as HTMLInputElement).value).toBe('https://api.mistral.ai/v1');
    expect((screen.getByLabelText('Model') as HTMLInputElement).value).toBe('mistral-small-latest');
    expect(screen.queryByTestId('saved-key')).toBeNull();
    // Without a saved key, Mistral needs one typed before a test is worth sending.
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await screen.findByText('This field is required');
    expect(calls().some((c) => c.url.endsWith('/test'))).toBe(false);
    fireEvent.input(keyField(), { target: { value: 'wrong-key' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await screen.findByText('The key was refused (401).');
    expect(calls().find((c) => c.url.endsWith('/test'))?.url).toBe('/api/v1/ai-providers/mistral/test');
  });

  it('asks for the base URL of an OpenAI-compatible server before saving', async () => {
    const calls = stubServer([]);
    renderWithApp(<AiProvidersPage />, '/ai-providers');
    fireEvent.click(await screen.findByRole('button', { name: 'Set up: OpenAI-compatible (vLLM etc.)' }));
    await screen.findByRole('heading', { name: 'Settings for OpenAI-compatible (vLLM etc.)' });
    fireEvent.input(screen.getByLabelText('Model'), { target: { value: 'llama-3-70b' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText('This field is required');
    expect(calls().some((c) => c.method === 'PUT')).toBe(false);
  });

  it('removes a provider after confirmation', async () => {
    const calls = stubServer([openai()]);
    renderWithApp(<AiProvidersPage />, '/ai-providers');
    fireEvent.click(await screen.findByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Remove OpenAI?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await screen.findByText('OpenAI removed.');
    expect(calls().find((c) => c.method === 'DELETE')?.url).toBe('/api/v1/ai-providers/openai');
    await waitFor(() =>
      expect(within(screen.getByTestId('provider-card-openai')).getByText('Not configured')).toBeTruthy(),
    );
  });
});
