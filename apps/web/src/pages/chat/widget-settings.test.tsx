import { fireEvent, screen, waitFor } from '@testing-library/react';
import { chatWidgetContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../test/fake-api.ts';
import { signedInAs } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { chat } from './chat-test-data.ts';
import { WidgetSettings } from './widget-settings.tsx';

afterEach(() => vi.unstubAllGlobals());

const TOKEN = 'q3V0cF8xLm9yZ2FuaXNlZC1ieS10';
const shared = chat({ visibility: 'public', shareToken: TOKEN, canManage: true });

function origins() {
  return screen.getByRole('textbox', { name: 'Allowed websites' });
}

describe('the website widget settings', () => {
  it('refuses a website with a path on its line before sending, then saves and shows the line to copy', async () => {
    signedInAs('DataManager');
    const api = fakeApi()
      .on(chatWidgetContracts.get, () => ({ enabled: false, origins: [] }))
      .on(chatWidgetContracts.update, ({ data }) => data);
    renderWithApp(<WidgetSettings chat={shared} />, '/chat');
    fireEvent.click(await screen.findByRole('switch', { name: /Show this chat as a widget/ }));
    fireEvent.change(origins(), {
      target: { value: 'https://www.example.de\nhttps://shop.example/kontakt' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save widget' }));
    expect(await screen.findByText(/^Line 2: Enter a website address/)).toBeTruthy();
    expect(api.calls(chatWidgetContracts.update)).toHaveLength(0);
    expect(screen.queryByTestId('widget-snippet')).toBeNull();

    fireEvent.change(origins(), { target: { value: 'https://www.example.de\nhttps://Shop.Example/' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save widget' }));
    const snippet = await screen.findByTestId('widget-snippet');
    expect(api.last(chatWidgetContracts.update)?.data).toEqual({
      enabled: true,
      origins: ['https://www.example.de', 'https://shop.example'],
    });
    expect((snippet as HTMLTextAreaElement).value).toBe(
      `<script src="${window.location.origin}/widget.js" data-chat="${TOKEN}" async></script>`,
    );
  });

  it("shows the server's refusal on the line it names", async () => {
    signedInAs('DataManager');
    fakeApi()
      .on(chatWidgetContracts.get, () => ({ enabled: true, origins: ['https://www.example.de'] }))
      .on(chatWidgetContracts.update, () =>
        apiError(422, 'VALIDATION_FAILED', 'invalid', {
          fields: [{ field: 'origins.0', code: 'validation.origin', message: 'invalid' }],
        }),
      );
    renderWithApp(<WidgetSettings chat={shared} />, '/chat');
    await screen.findByTestId('widget-snippet');
    fireEvent.click(screen.getByRole('button', { name: 'Save widget' }));
    await waitFor(() => expect(screen.getByText(/^Line 1: Enter a website address/)).toBeTruthy());
  });

  it('asks for a share link first', () => {
    signedInAs('DataManager');
    fakeApi().on(chatWidgetContracts.get, () => ({ enabled: false, origins: [] }));
    renderWithApp(<WidgetSettings chat={{ ...shared, shareToken: null }} />, '/chat');
    expect(screen.getByText(/Create a share link first/)).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Allowed websites' })).toBeNull();
  });
});
