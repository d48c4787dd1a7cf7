import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ChatMessage, PublicChat } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../test/render.tsx';
import {
  ANSWER_ID,
  citation,
  eventStream,
  message,
  notFound,
  QUESTION_ID,
  stubFetch,
} from '../chat/chat-test-data.ts';
import PublicChatPage from './public-chat-page.tsx';

// The widget itself (a web component solving a proof of work) is not what these tests are about.
vi.mock('altcha', () => ({}));

afterEach(() => vi.unstubAllGlobals());

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUv';
const BASE = `/api/v1/public/chats/${TOKEN}`;

const publicChat = (overrides: Partial<PublicChat> = {}): PublicChat => ({
  name: 'Kundenfragen',
  companyName: 'Heizung Müller GmbH',
  companyLogoUrl: '/api/v1/branding/companies/c1/logo?v=abc',
  companyColor: null,
  canAsk: true,
  botCheck: 'altcha',
  botCheckSiteKey: null,
  visitor: null,
  ...overrides,
});

const visitor = { name: 'Anna', phone: null, email: null };

describe('the public chat page', () => {
  it('asks a new visitor for the bot check, then joins with its payload and opens the conversation', async () => {
    const { calls } = stubFetch({
      [`GET ${BASE}`]: () => Response.json(publicChat()),
      [`POST ${BASE}/visitor`]: () => Response.json(visitor),
      [`GET ${BASE}/messages`]: () => Response.json({ items: [] }),
    });
    renderWithApp(<PublicChatPage />, `/p/${TOKEN}`);

    await screen.findByRole('heading', { name: 'Kundenfragen' });
    expect(screen.getByText('A chat by Heizung Müller GmbH')).toBeTruthy();
    // The company's customers see the company's logo and name, not the product's.
    const header = screen.getByTestId('company-header');
    expect(header.querySelector('img')?.getAttribute('src')).toBe('/api/v1/branding/companies/c1/logo?v=abc');
    expect(header.querySelector('img')?.getAttribute('alt')).toBe('Heizung Müller GmbH');
    const start = screen.getByRole('button', { name: 'Start chat' }) as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    const widget = await waitFor(() => {
      const el = document.querySelector('altcha-widget');
      if (!el) throw new Error('no widget yet');
      return el;
    });
    expect(widget.getAttribute('challenge')).toBe('/api/v1/public/altcha-challenge');
    expect(screen.queryByRole('log')).toBeNull();
    // Before leaving a name or contact, the visitor reads who receives it, what for, and the privacy notice.
    expect(screen.getByTestId('visitor-privacy').textContent).toContain(
      'Heizung Müller GmbH receives what you enter here and your questions, and uses them only to answer you.',
    );
    expect(screen.getByRole('link', { name: 'Privacy notice' }).getAttribute('href')).toBe(
      'https://werkwissen.example/legal-terms',
    );

    act(() => {
      widget.dispatchEvent(
        new CustomEvent('statechange', { detail: { state: 'verified', payload: 'proof-1' } }),
      );
    });
    await waitFor(() => expect(start.disabled).toBe(false));
    fireEvent.change(screen.getByLabelText('Your name (optional)'), { target: { value: ' Anna ' } });
    fireEvent.click(start);

    await screen.findByRole('log', { name: 'Conversation' });
    const [join] = calls(`POST ${BASE}/visitor`);
    expect(JSON.parse(join!.init.body as string)).toEqual({
      botCheck: 'proof-1',
      name: 'Anna',
      phone: null,
      email: null,
    });
    expect(join!.init.credentials).toBe('same-origin');
  });

  it('sends no bot-check payload when the installation switched the check off', async () => {
    const { calls } = stubFetch({
      [`GET ${BASE}`]: () => Response.json(publicChat({ botCheck: 'off' })),
      [`POST ${BASE}/visitor`]: () => Response.json({ name: null, phone: null, email: null }),
      [`GET ${BASE}/messages`]: () => Response.json({ items: [] }),
    });
    renderWithApp(<PublicChatPage />, `/p/${TOKEN}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Start chat' }));
    await screen.findByRole('log');
    expect(document.querySelector('altcha-widget')).toBeNull();
    expect(JSON.parse(calls(`POST ${BASE}/visitor`)[0]!.init.body as string)).toEqual({
      name: null,
      phone: null,
      email: null,
    });
  });

  it("shows a known visitor's conversation, whose citations show the passage but do not link to the file", async () => {
    let stream: ReturnType<typeof eventStream> | null = null;
    const { calls } = stubFetch({
      [`GET ${BASE}`]: () => Response.json(publicChat({ visitor })),
      [`GET ${BASE}/messages`]: () =>
        Response.json({
          items: [
            message({ id: QUESTION_ID, role: 'user', content: 'Wann wird gewartet?' }),
            message({ content: 'Jährlich [1].', citations: [citation()] }),
          ],
        }),
      [`POST ${BASE}/messages`]: (init) => {
        stream = eventStream(init.signal);
        return stream.response;
      },
      [`PUT ${BASE}/messages/${ANSWER_ID}/feedback`]: () =>
        Response.json({
          id: '8d7b4fc9-0c5f-4bca-9e9f-8a7d3b8c9d08',
          messageId: ANSWER_ID,
          liked: false,
          mood: null,
          rating: null,
          comment: null,
          tagId: null,
          tagName: null,
          updatedAt: '2025-03-02T10:01:00.000Z',
        }),
    });
    renderWithApp(<PublicChatPage />, `/p/${TOKEN}`);

    const log = await screen.findByRole('log', { name: 'Conversation' });
    await within(log).findByText('Wann wird gewartet?');
    expect(screen.queryByRole('button', { name: 'Start chat' })).toBeNull();
    expect(within(log).queryByRole('button', { name: 'Answer again' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Record a voice message' })).toBeNull();

    fireEvent.click(within(log).getByRole('button', { name: 'Source 1: Wartungshandbuch.pdf' }));
    const popover = await screen.findByRole('dialog', { name: 'Source 1' });
    expect(within(popover).getByText('Der Brenner wird jährlich gewartet.')).toBeTruthy();
    expect(within(popover).queryByRole('link')).toBeNull();
    fireEvent.keyDown(popover, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(within(log).getByRole('button', { name: 'Bad answer' }));
    // A dislike opens the feedback form; the visitor may close it without saying more.
    const form = await screen.findByRole('dialog', { name: 'Feedback on this answer' });
    fireEvent.click(within(form).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() =>
      expect(within(log).getByRole('button', { name: 'Bad answer' }).getAttribute('aria-pressed')).toBe(
        'true',
      ),
    );
    expect(JSON.parse(calls(`PUT ${BASE}/messages/${ANSWER_ID}/feedback`)[0]!.init.body as string)).toEqual({
      liked: false,
    });

    fireEvent.change(screen.getByRole('textbox', { name: 'Your question' }), {
      target: { value: 'Und danach?' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(stream).not.toBeNull());
    const [ask] = calls(`POST ${BASE}/messages`);
    expect(ask!.init.headers).not.toHaveProperty('x-csrf-token');
    expect(ask!.init.credentials).toBe('same-origin');
    act(() => {
      stream!.send('start', {
        questionId: '9e8c5ad0-1d6a-4cdb-8fa0-9b8e4c9dae09',
        messageId: 'a09d6be1-2e7b-4dec-9ab1-ac9f5dae0f10',
      });
      stream!.send('token', { text: 'Alle zwei Jahre.' });
    });
    await within(log).findByText(/Alle zwei Jahre\./);
  });

  it('keeps an answer that ends before the conversation has loaded', async () => {
    // A slow server: the list is read before the question is stored and reaches the page after the answer.
    let releaseList!: () => void;
    const listRead = new Promise<void>((resolve) => {
      releaseList = resolve;
    });
    let stream: ReturnType<typeof eventStream> | null = null;
    const stored: ChatMessage[] = [];
    const { calls } = stubFetch({
      [`GET ${BASE}`]: () => Response.json(publicChat({ visitor })),
      [`GET ${BASE}/messages`]: async () => {
        const read = Response.json({ items: [...stored] });
        await listRead;
        return read;
      },
      [`POST ${BASE}/messages`]: (init) => {
        stream = eventStream(init.signal);
        return stream.response;
      },
    });
    renderWithApp(<PublicChatPage />, `/p/${TOKEN}`);
    fireEvent.change(await screen.findByRole('textbox', { name: 'Your question' }), {
      target: { value: 'Wann wird gewartet?' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(stream).not.toBeNull());
    const answer = message({ content: 'Jährlich.' });
    act(() => {
      stream!.send('start', { questionId: QUESTION_ID, messageId: ANSWER_ID });
      stream!.send('token', { text: 'Jährlich.' });
      stored.push(message({ id: QUESTION_ID, role: 'user', content: 'Wann wird gewartet?' }), answer);
      stream!.send('done', answer);
      stream!.close();
    });
    const log = screen.getByRole('log', { name: 'Conversation' });
    await waitFor(() => expect(log.getAttribute('aria-busy')).toBeNull());
    releaseList();
    // The list read before the answer was stored does not wipe it out; it is read again.
    await waitFor(() => expect(calls(`GET ${BASE}/messages`)).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(within(log).getByText('Wann wird gewartet?')).toBeTruthy();
    expect(within(log).getByText('Jährlich.')).toBeTruthy();
  });

  it('shows the translated message of a rate-limited question', async () => {
    stubFetch({
      [`GET ${BASE}`]: () => Response.json(publicChat({ visitor })),
      [`GET ${BASE}/messages`]: () => Response.json({ items: [] }),
      [`POST ${BASE}/messages`]: () =>
        Response.json(
          { error: { code: 'RATE_LIMITED', message: 'Zu viele Anfragen.' } },
          { status: 429, headers: { 'retry-after': '42' } },
        ),
    });
    renderWithApp(<PublicChatPage />, `/p/${TOKEN}`);
    fireEvent.change(await screen.findByRole('textbox', { name: 'Your question' }), {
      target: { value: 'Hallo?' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByText('Too many attempts. Please try again in 42 seconds.');
  });

  it('says that a revoked or unknown link does not work any more', async () => {
    stubFetch({ [`GET ${BASE}`]: notFound });
    renderWithApp(<PublicChatPage />, `/p/${TOKEN}`);
    await screen.findByRole('heading', { name: 'This link does not work any more' });
  });
});

describe('the public chat of a suspended company', () => {
  it('says plainly that the chat is not available', async () => {
    stubFetch({
      [`GET ${BASE}`]: () =>
        Response.json(
          { error: { code: 'PUBLIC_CHAT_SUSPENDED', message: 'This chat is not available at the moment.' } },
          { status: 403 },
        ),
    });
    renderWithApp(<PublicChatPage />, `/p/${TOKEN}`);
    await screen.findByText('This chat is not available at the moment.');
    expect(screen.queryByRole('button', { name: 'Start chat' })).toBeNull();
  });
});
