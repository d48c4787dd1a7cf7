import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { division, storage } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import ChatPage from './chat-page.tsx';
import { CHAT_ID, chat, chatOptions, stubFetch } from './chat-test-data.ts';

type ViewportWindow = Window & { happyDOM: { setViewport(v: { width: number; height: number }): void } };
const setWidth = (width: number) =>
  (window as unknown as ViewportWindow).happyDOM.setViewport({ width, height: 900 });

afterEach(() => {
  vi.unstubAllGlobals();
  setWidth(1024);
});

function server() {
  stubFetch({
    'GET /api/v1/chats': () => Response.json({ items: [chat()], total: 1, page: 1, pageSize: 100 }),
    'GET /api/v1/chat-options': () => Response.json(chatOptions()),
    'GET /api/v1/divisions': () => Response.json({ items: [division()], limit: 3, storage }),
    [`GET /api/v1/chats/${CHAT_ID}/messages`]: () => Response.json({ items: [] }),
  });
}

const details = () => screen.queryByRole('complementary', { name: 'Chat details' });

describe('the chat layout', () => {
  it('leaves the width to the conversation on a 1440 px screen and remembers opening the details', async () => {
    setWidth(1440);
    server();
    const first = renderWithApp(<ChatPage />, `/chat?chat=${CHAT_ID}`);
    const show = await screen.findByRole('button', { name: 'Show details' });
    expect(show.getAttribute('aria-expanded')).toBe('false');
    expect(details()).toBeNull();
    fireEvent.click(show);
    expect(details()).not.toBeNull();
    expect(localStorage.getItem('chat.details')).toBe('open');

    first.unmount();
    renderWithApp(<ChatPage />, `/chat?chat=${CHAT_ID}`);
    // renderWithApp's cleanup clears localStorage only after the test.
    await screen.findByRole('button', { name: 'Hide details' });
    expect(details()).not.toBeNull();
  });

  it('shows the details on a wide screen until they are closed there', async () => {
    setWidth(1920);
    server();
    const first = renderWithApp(<ChatPage />, `/chat?chat=${CHAT_ID}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Hide details' }));
    expect(details()).toBeNull();
    expect(localStorage.getItem('chat.details')).toBe('closed');

    first.unmount();
    renderWithApp(<ChatPage />, `/chat?chat=${CHAT_ID}`);
    await screen.findByRole('button', { name: 'Show details' });
    expect(details()).toBeNull();
  });
});
