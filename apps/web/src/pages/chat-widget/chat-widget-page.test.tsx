import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { PublicChat } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../test/render.tsx';
import { notFound, stubFetch } from '../chat/chat-test-data.ts';
import ChatWidgetPage from './chat-widget-page.tsx';

// The bot check's web component (a proof of work) is not what these tests are about.
vi.mock('altcha', () => ({}));

afterEach(() => vi.unstubAllGlobals());

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUv';
const VIEW = `/api/v1/public/widgets/${TOKEN}`;
const MESSAGES = `/api/v1/public/chats/${TOKEN}/messages`;

const widgetChat = (overrides: Partial<PublicChat> = {}): PublicChat => ({
  name: 'Kundenfragen',
  companyName: 'Heizung Müller GmbH',
  companyLogoUrl: null,
  companyColor: '#1d6b3a',
  canAsk: true,
  botCheck: 'altcha',
  botCheckSiteKey: null,
  visitor: null,
  ...overrides,
});

const header = (init: RequestInit) => new Headers(init.headers).get('x-visitor-token');

describe('the widget page in a website’s frame', () => {
  it('shows nothing for a widget that is off or gone', async () => {
    const { calls } = stubFetch({ [`GET ${VIEW}`]: notFound });
    const { container } = renderWithApp(<ChatWidgetPage />, `/widget/${TOKEN}`);
    await waitFor(() => expect(calls(`GET ${VIEW}`)).toHaveLength(1));
    // Not even the loading placeholder stays: the frame is empty, and the launcher never hears "ready".
    await waitFor(() => expect(container.innerHTML).toBe(''));
    expect(screen.queryByTestId('chat-widget')).toBeNull();
  });

  it('joins after the bot check, keeps the visitor token and sends it with every call of the conversation', async () => {
    const { calls } = stubFetch({
      [`GET ${VIEW}`]: (init) =>
        Response.json(widgetChat(header(init) ? { visitor: { name: null, phone: null, email: null } } : {})),
      [`POST ${VIEW}/visitor`]: () =>
        Response.json({ name: null, phone: null, email: null, visitorToken: 'visitor-token-1' }),
      [`GET ${MESSAGES}`]: () => Response.json({ items: [] }),
    });
    renderWithApp(<ChatWidgetPage />, `/widget/${TOKEN}`);
    await screen.findByRole('heading', { name: 'Kundenfragen' });
    expect(screen.getByTestId('visitor-privacy').textContent).toContain('Heizung Müller GmbH receives');
    const widget = await waitFor(() => {
      const el = document.querySelector('altcha-widget');
      if (!el) throw new Error('no bot check yet');
      return el;
    });
    act(() => {
      widget.dispatchEvent(
        new CustomEvent('statechange', { detail: { state: 'verified', payload: 'proof-1' } }),
      );
    });
    const start = screen.getByRole('button', { name: 'Start chat' }) as HTMLButtonElement;
    await waitFor(() => expect(start.disabled).toBe(false));
    fireEvent.click(start);
    await screen.findByRole('log', { name: 'Conversation' });
    expect(header(calls(`POST ${VIEW}/visitor`)[0]!.init)).toBeNull();
    await waitFor(() => expect(calls(`GET ${MESSAGES}`).length).toBeGreaterThan(0));
    expect(header(calls(`GET ${MESSAGES}`)[0]!.init)).toBe('visitor-token-1');
    expect(localStorage.getItem(`ww_widget_visitor:${TOKEN}`)).toBe('visitor-token-1');
  });
});
