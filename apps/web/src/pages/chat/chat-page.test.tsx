import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ChatMessage } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { division, signedInAs, storage } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import ChatPage from './chat-page.tsx';
import {
  ANSWER_ID,
  CHAT_ID,
  chat,
  chatOptions,
  citation,
  eventStream,
  feedbackEcho,
  message,
  notFound,
  QUESTION_ID,
  stubFetch,
} from './chat-test-data.ts';

afterEach(() => vi.unstubAllGlobals());

const OTHER_CHAT = '5a4e1c96-7f2c-4e97-8b6c-5d4a0e5f6a05';
const MESSAGES = `/api/v1/chats/${CHAT_ID}/messages`;

function server(
  options: {
    chats?: ReturnType<typeof chat>[];
    messages?: ChatMessage[];
    speech?: Parameters<typeof chatOptions>[0];
    extra?: Parameters<typeof stubFetch>[0];
  } = {},
) {
  return stubFetch({
    'GET /api/v1/chats': () =>
      Response.json({
        items: options.chats ?? [
          chat(),
          chat({
            id: OTHER_CHAT,
            name: 'Preisliste',
            visibility: 'public',
            isOwner: false,
            ownerName: 'Max',
          }),
        ],
        total: 2,
        page: 1,
        pageSize: 100,
      }),
    'GET /api/v1/chat-options': () => Response.json(chatOptions(options.speech)),
    'GET /api/v1/divisions': () => Response.json({ items: [division()], limit: 3, storage }),
    [`GET ${MESSAGES}`]: () => Response.json({ items: options.messages ?? [] }),
    // Not what these tests look at: answered "not there", as the hand-written stub answered them before.
    'GET /api/v1/tags': notFound,
    [`GET /api/v1/chats/${CHAT_ID}/widget`]: notFound,
    [`GET /api/v1/chats/${OTHER_CHAT}`]: notFound,
    ...options.extra,
  });
}

const log = () => screen.getByRole('log', { name: 'Conversation' });

/**
 * `server` with `route` answering an event stream that the test writes: `opened()` waits for that request and gives
 * its stream.
 */
function streamingServer(route = `POST ${MESSAGES}`, options: Parameters<typeof server>[0] = {}) {
  let stream: ReturnType<typeof eventStream> | null = null;
  const fake = server({
    ...options,
    extra: {
      ...options.extra,
      [route]: (init) => {
        stream = eventStream(init.signal);
        return stream.response;
      },
    },
  });
  return {
    ...fake,
    opened: async () => {
      await waitFor(() => expect(stream).not.toBeNull());
      return stream!;
    },
  };
}

async function ask(text: string) {
  const input = await screen.findByRole('textbox', { name: 'Your question' });
  fireEvent.change(input, { target: { value: text } });
  fireEvent.click(screen.getByRole('button', { name: 'Send' }));
}

// Heavy screens: role queries over MUI's tree take a while in happy-dom.
describe('the chat screen', () => {
  it('lists the chats with their marker and shows the chosen conversation with its citations', async () => {
    server({
      messages: [
        message({ id: QUESTION_ID, role: 'user', content: 'Wie oft wird der Brenner gewartet?' }),
        message({ content: 'Jährlich [1].', citations: [citation()] }),
        message({
          id: '6b5f2da7-8a3d-4fa8-9c7d-6e5b1f6a7b06',
          content: 'Die Antwort brach ab',
          status: 'interrupted',
          errorCode: 'PROVIDER_STREAM_INTERRUPTED',
          errorMessage: 'The connection to the AI provider broke off.',
        }),
        message({
          id: '7c6a3eb8-9b4e-4ab9-8d8e-7f6c2a7b8c07',
          content: 'I found nothing [1].',
          noAnswer: true,
          citations: [citation()],
        }),
      ],
    });
    renderWithApp(<ChatPage />, `/chat?chat=${CHAT_ID}`);

    const items = await screen.findAllByTestId('chat-list-item');
    expect(items.map((i) => i.textContent)).toEqual([
      'HeizungsfragenPrivate · Messages: 2',
      'PreislistePublic · by Max · Messages: 2',
    ]);
    expect(items[0]!.getAttribute('aria-current')).toBe('true');
    expect(screen.getByRole('heading', { name: 'Heizungsfragen' })).toBeTruthy();

    await within(log()).findByText('Wie oft wird der Brenner gewartet?');
    expect(log().getAttribute('aria-live')).toBe('polite');
    const answers = within(log()).getAllByTestId('answer');
    expect(within(answers[0]!).getByRole('button', { name: 'Source 1: Wartungshandbuch.pdf' })).toBeTruthy();
    expect(within(answers[1]!).getByText('The connection to the AI provider broke off.')).toBeTruthy();
    // An answer that found nothing is shown as it is, without chips or sources.
    expect(within(answers[2]!).getByText('I found nothing [1].')).toBeTruthy();
    expect(within(answers[2]!).queryByRole('button', { name: /^Source/ })).toBeNull();

    // The right panel lists the cited file and the chat's questions (closed by default below 1536 px).
    fireEvent.click(screen.getByRole('button', { name: 'Show details' }));
    const details = screen.getByRole('complementary', { name: 'Chat details' });
    expect(within(details).getByRole('link', { name: 'Wartungshandbuch.pdf' })).toBeTruthy();
    fireEvent.click(within(details).getByRole('tab', { name: 'Questions' }));
    expect(within(details).getByRole('button', { name: 'Wie oft wird der Brenner gewartet?' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Hide details' }));
    expect(screen.queryByRole('complementary', { name: 'Chat details' })).toBeNull();
  });

  it('shows a WhatsApp chat with its source in the list and beside its name', async () => {
    server({ chats: [chat({ name: 'WhatsApp', source: 'whatsapp', divisions: [] })] });
    renderWithApp(<ChatPage />, `/chat?chat=${CHAT_ID}`);
    const [item] = await screen.findAllByTestId('chat-list-item');
    expect(item!.textContent).toBe('WhatsAppWhatsApp · Private · Messages: 2');
    expect(screen.getByRole('heading', { name: 'WhatsApp' }).parentElement!.textContent).toContain(
      'PrivateWhatsApp',
    );
    // Nothing to edit (it has no divisions of its own), but it can be deleted.
    expect(screen.queryByRole('button', { name: 'Edit chat' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Delete chat' })).toBeTruthy();
  });

  it('puts the keyboard in the question box when a chat opens', async () => {
    server();
    renderWithApp(<ChatPage />, `/chat?chat=${CHAT_ID}`);
    const input = await screen.findByRole('textbox', { name: 'Your question' });
    await waitFor(() => expect(document.activeElement).toBe(input));
  });

  it('streams the answer token by token, then shows its citation chips opening the file at its page', async () => {
    const { calls, opened } = streamingServer();
    // biome-ignore lint/suspicious/noDocumentCookie: the CSRF cookie the request must send back as a header
    document.cookie = 'ww_csrf=csrf-1';
    renderWithApp(<ChatPage />, `/chat?chat=${CHAT_ID}`);
    await within(await screen.findByRole('log')).findByText(
      'Ask a question about the documents of this chat.',
    );
    await ask('  Wie oft wird der Brenner gewartet? ');

    const s = await opened();
    const [post] = calls(`POST ${MESSAGES}`);
    expect(JSON.parse(post!.init.body as string)).toEqual({ content: 'Wie oft wird der Brenner gewartet?' });
    expect((post!.init.headers as Record<string, string>)['x-csrf-token']).toBe('csrf-1');
    expect(within(log()).getByText('Wie oft wird der Brenner gewartet?')).toBeTruthy();
    expect(within(log()).getByTestId('typing-indicator')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Stop the answer' })).toBeTruthy();

    act(() => {
      s.send('start', { questionId: QUESTION_ID, messageId: ANSWER_ID });
      s.send('token', { text: 'Der Brenner wird ' });
    });
    const answer = await within(log()).findByTestId('answer');
    await waitFor(() => expect(answer.textContent).toContain('Der Brenner wird'));
    expect(within(log()).queryByTestId('typing-indicator')).toBeNull();

    act(() => {
      s.send('citation', citation());
      s.send('token', { text: 'jährlich gewartet [1].' });
    });
    await within(answer).findByRole('button', { name: 'Source 1: Wartungshandbuch.pdf' });
    expect(answer.textContent).toContain('Der Brenner wird jährlich gewartet');

    act(() => {
      s.send(
        'done',
        message({ content: 'Der Brenner wird jährlich gewartet [1].', citations: [citation()] }),
      );
      s.close();
    });
    await screen.findByRole('button', { name: 'Answer again' });
    expect(screen.getByRole('button', { name: 'Send' })).toBeTruthy();

    fireEvent.click(within(log()).getByRole('button', { name: 'Source 1: Wartungshandbuch.pdf' }));
    const popover = await screen.findByRole('dialog', { name: 'Source 1' });
    expect(within(popover).getByText('Der Brenner wird jährlich gewartet.')).toBeTruthy();
    const link = within(popover).getByRole('link', { name: /Wartungshandbuch\.pdf/ });
    expect(link.textContent).toBe('Open Wartungshandbuch.pdf at page 3');
    // At its page, with the cited passage to highlight there.
    expect(link.getAttribute('href')).toBe(
      `/files/f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9/view?page=3#passage=${encodeURIComponent('Der Brenner wird jährlich gewartet.')}`,
    );
  });

  it('keeps a source opened while the answer streams open when the stored answer takes its place', async () => {
    const { opened } = streamingServer();
    renderWithApp(<ChatPage />, `/chat?chat=${CHAT_ID}`);
    await ask('Wie oft wird der Brenner gewartet?');
    const s = await opened();
    act(() => {
      s.send('start', { questionId: QUESTION_ID, messageId: ANSWER_ID });
      s.send('citation', citation());
      s.send('token', { text: 'Der Brenner wird jährlich gewartet [1].' });
    });
    fireEvent.click(await within(log()).findByRole('button', { name: 'Source 1: Wartungshandbuch.pdf' }));
    await screen.findByRole('dialog', { name: 'Source 1' });

    act(() => {
      s.send(
        'done',
        message({ content: 'Der Brenner wird jährlich gewartet [1].', citations: [citation()] }),
      );
      s.close();
    });
    // The stored answer is there (behind the open source, which hides the rest from assistive technology).
    await screen.findByRole('button', { name: 'Answer again', hidden: true });
    const popover = await screen.findByRole('dialog', { name: 'Source 1' });
    expect(within(popover).getByText('Der Brenner wird jährlich gewartet.')).toBeTruthy();
    // Closed, it stays closed.
    fireEvent.keyDown(popover, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Source 1' })).toBeNull());
  });

  it('keeps the partial answer as stopped when the asker stops it', async () => {
    const { opened } = streamingServer();
    renderWithApp(<ChatPage />, `/chat?chat=${CHAT_ID}`);
    await ask('Was kostet die Wartung?');
    const stream = await opened();
    act(() => {
      stream.send('start', { questionId: QUESTION_ID, messageId: ANSWER_ID });
      stream.send('token', { text: 'Die Wartung kostet' });
    });
    await within(log()).findByText(/Die Wartung kostet/);
    fireEvent.click(screen.getByRole('button', { name: 'Stop the answer' }));
    await within(log()).findByText('The answer was stopped.');
    expect(within(log()).getByTestId('answer').textContent).toContain('Die Wartung kostet');
    expect(within(log()).queryByTestId('typing-indicator')).toBeNull();
  });

  it('answers the last question again in place of the old answer', async () => {
    const NEW_ANSWER = 'b1ae7cf2-3f8c-4efd-8bc2-bd0a6ebf1a11';
    const { calls, opened } = streamingServer(`POST ${MESSAGES}/${ANSWER_ID}/regenerate`, {
      messages: [
        message({ id: QUESTION_ID, role: 'user', content: 'Wie oft?' }),
        message({ content: 'Alte Antwort.' }),
      ],
    });
    renderWithApp(<ChatPage />, `/chat?chat=${CHAT_ID}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Answer again' }));
    const stream = await opened();
    expect(within(log()).queryByText('Alte Antwort.')).toBeNull();
    expect(within(log()).getAllByTestId('question')).toHaveLength(1);
    act(() => {
      stream.send('start', { questionId: QUESTION_ID, messageId: NEW_ANSWER });
      stream.send('token', { text: 'Neue Antwort.' });
      stream.send('done', message({ id: NEW_ANSWER, content: 'Neue Antwort.' }));
      stream.close();
    });
    await screen.findByRole('button', { name: 'Answer again' });
    expect(
      within(log())
        .getAllByTestId('answer')
        .map((a) => a.textContent),
    ).toEqual([expect.stringContaining('Neue Antwort.')]);
    expect(calls(`POST ${MESSAGES}/${ANSWER_ID}/regenerate`)).toHaveLength(1);
  });

  it('shows the refusal of a question and gives the question back', async () => {
    server({
      extra: {
        [`POST ${MESSAGES}`]: () =>
          Response.json(
            { error: { code: 'RATE_LIMITED', message: 'Zu viele.', details: { seconds: 30 } } },
            { status: 429 },
          ),
      },
    });
    renderWithApp(<ChatPage />, `/chat?chat=${CHAT_ID}`);
    await ask('Was kostet die Wartung?');
    await screen.findByText('Too many attempts. Please try again in 30 seconds.');
    expect((screen.getByRole('textbox', { name: 'Your question' }) as HTMLTextAreaElement).value).toBe(
      'Was kostet die Wartung?',
    );
  });

  it('says "Please upload a file first to start the chat." and disables the input while no file is ready', async () => {
    server({ chats: [chat({ canAsk: false })] });
    renderWithApp(<ChatPage />, `/chat?chat=${CHAT_ID}`);
    expect((await screen.findByTestId('chat-no-ready-file')).textContent).toBe(
      'Please upload a file first to start the chat.',
    );
    expect((screen.getByRole('textbox', { name: 'Your question' }) as HTMLTextAreaElement).disabled).toBe(
      true,
    );
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('likes an answer with a PUT of only {liked: true} and shows the saved state', async () => {
    const { calls } = server({
      messages: [message({ content: 'Jährlich.' })],
      extra: {
        [`PUT /api/v1/messages/${ANSWER_ID}/feedback`]: () =>
          Response.json({
            id: '8d7b4fc9-0c5f-4bca-9e9f-8a7d3b8c9d08',
            messageId: ANSWER_ID,
            liked: true,
            mood: null,
            rating: null,
            comment: null,
            tagId: null,
            tagName: null,
            updatedAt: '2025-03-02T10:01:00.000Z',
          }),
      },
    });
    renderWithApp(<ChatPage />, `/chat?chat=${CHAT_ID}`);
    const like = await screen.findByRole('button', { name: 'Good answer' });
    expect(like.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(like);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Good answer' }).getAttribute('aria-pressed')).toBe('true'),
    );
    const [put] = calls(`PUT /api/v1/messages/${ANSWER_ID}/feedback`);
    expect(JSON.parse(put!.init.body as string)).toEqual({ liked: true });
    expect(screen.getByRole('button', { name: 'Bad answer' }).getAttribute('aria-pressed')).toBe('false');
  });

  it('opens the feedback form on a dislike, pointing a data manager to the tags when there are none', async () => {
    signedInAs('DataManager');
    const { calls } = server({
      messages: [message({ content: 'Jährlich.' })],
      extra: {
        'GET /api/v1/tags': () => Response.json({ items: [] }),
        [`PUT /api/v1/messages/${ANSWER_ID}/feedback`]: feedbackEcho(),
      },
    });
    renderWithApp(<ChatPage />, `/chat?chat=${CHAT_ID}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Bad answer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Feedback on this answer' });
    expect(JSON.parse(calls(`PUT /api/v1/messages/${ANSWER_ID}/feedback`)[0]!.init.body as string)).toEqual({
      liked: false,
    });
    await within(dialog).findByTestId('no-tags-hint');
    expect(within(dialog).getByRole('link', { name: 'Create tags' }).getAttribute('href')).toBe('/tags');
  });

  it('sends only the changed fields of the feedback dialog', async () => {
    const { calls } = server({
      messages: [message({ content: 'Jährlich.' })],
      extra: {
        [`PUT /api/v1/messages/${ANSWER_ID}/feedback`]: feedbackEcho({ mood: 'happy', comment: 'Passt' }),
      },
    });
    renderWithApp(<ChatPage />, `/chat?chat=${CHAT_ID}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Feedback' }));
    const dialog = await screen.findByRole('dialog', { name: 'Feedback on this answer' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Happy' }));
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Comment' }), {
      target: { value: ' Passt ' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send feedback' }));
    await screen.findByRole('button', { name: 'Edit feedback' });
    expect(JSON.parse(calls(`PUT /api/v1/messages/${ANSWER_ID}/feedback`)[0]!.init.body as string)).toEqual({
      mood: 'happy',
      comment: 'Passt',
    });
    expect(screen.getByRole('img', { name: 'Mood: Happy' })).toBeTruthy();
  });

  it("keeps the voice button reachable but unusable when speech is unavailable, saying the server's reason", async () => {
    server({ speech: { available: false, provider: null, reason: 'Richten Sie einen Anbieter ein.' } });
    renderWithApp(<ChatPage />, `/chat?chat=${CHAT_ID}`);
    const mic = await screen.findByRole('button', { name: 'Record a voice message' });
    expect(mic.getAttribute('aria-disabled')).toBe('true');
    fireEvent.focus(mic);
    fireEvent.mouseOver(mic);
    expect((await screen.findByRole('tooltip')).textContent).toBe('Richten Sie einen Anbieter ein.');
  });

  it('says so when the microphone is refused, and puts a transcript into the input without sending it', async () => {
    const { calls } = server({
      extra: {
        [`POST /api/v1/chats/${CHAT_ID}/transcriptions`]: () =>
          Response.json({ text: 'Wann kommt der Techniker?' }),
      },
    });
    const getUserMedia = vi.fn(async (): Promise<MediaStream> => {
      throw new DOMException('denied', 'NotAllowedError');
    });
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia } });
    vi.stubGlobal('MediaRecorder', class {});
    renderWithApp(<ChatPage />, `/chat?chat=${CHAT_ID}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Record a voice message' }));
    await screen.findByText(/Microphone access was denied/);

    class FakeRecorder {
      static isTypeSupported = () => true;
      mimeType = 'audio/webm';
      state = 'inactive';
      ondataavailable: ((e: { data: Blob }) => void) | null = null;
      onstop: (() => void) | null = null;
      start() {
        this.state = 'recording';
      }
      stop() {
        this.state = 'inactive';
        this.ondataavailable?.({ data: new Blob(['voice'], { type: 'audio/webm' }) });
        this.onstop?.();
      }
    }
    getUserMedia.mockImplementation(async () => ({ getTracks: () => [] }) as unknown as MediaStream);
    vi.stubGlobal('MediaRecorder', FakeRecorder);
    fireEvent.click(screen.getByRole('button', { name: 'Record a voice message' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Stop recording' }));
    await waitFor(() =>
      expect((screen.getByRole('textbox', { name: 'Your question' }) as HTMLTextAreaElement).value).toBe(
        'Wann kommt der Techniker?',
      ),
    );
    const [upload] = calls(`POST /api/v1/chats/${CHAT_ID}/transcriptions`);
    const audio = (upload!.init.body as FormData).get('audio') as File;
    expect(audio.name).toBe('voice.webm');
    expect(calls(`POST ${MESSAGES}`)).toHaveLength(0);
  });
  it('starts a chat with the provider its path chose and opens it', async () => {
    const created = chat({ id: OTHER_CHAT, name: 'Wartung', provider: 'mistral', messageCount: 0 });
    const { calls } = server({
      chats: [chat()],
      extra: {
        'GET /api/v1/chat-options': () =>
          Response.json({
            ...chatOptions(),
            providers: [
              { provider: 'builtin', model: null },
              { provider: 'mistral', model: 'mistral-small-latest' },
            ],
          }),
        'POST /api/v1/chats': () => Response.json(created, { status: 201 }),
        [`GET /api/v1/chats/${OTHER_CHAT}/messages`]: () => Response.json({ items: [] }),
      },
    });
    renderWithApp(<ChatPage />, '/mistralai');
    await screen.findByText('Choose a chat or start a new one.');
    fireEvent.click(screen.getAllByRole('button', { name: 'New chat' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'New chat' });
    const provider = within(dialog).getByRole('combobox', { name: 'Answers by' });
    expect(provider.textContent).toBe('Mistral AI · mistral-small-latest');
    fireEvent.mouseDown(provider);
    const choices = await screen.findByRole('listbox', { name: 'Answers by' });
    expect(
      within(choices)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Built-in answerer', 'Mistral AI · mistral-small-latest']);
    fireEvent.keyDown(choices, { key: 'Escape' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name' }), {
      target: { value: ' Wartung ' },
    });
    // Without a division the chat is refused before it is sent.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create chat' }));
    await within(dialog).findByText('This field is required');
    expect(calls('POST /api/v1/chats')).toHaveLength(0);
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Divisions' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Heizung' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create chat' }));
    await screen.findByRole('heading', { name: 'Wartung' });
    expect(JSON.parse(calls('POST /api/v1/chats')[0]!.init.body as string)).toEqual({
      name: 'Wartung',
      visibility: 'private',
      provider: 'mistral',
      divisionIds: [division().id],
    });
  });

  it("shows a public chat's share link with copy and revoke", async () => {
    let shared = chat({ visibility: 'public', shareToken: 'AbCdEfGhIjKlMnOpQrStUv' });
    const { calls } = server({
      extra: {
        'GET /api/v1/chats': () => Response.json({ items: [shared], total: 1, page: 1, pageSize: 100 }),
        [`DELETE /api/v1/chats/${CHAT_ID}/share`]: () => {
          shared = { ...shared, shareToken: null };
          return Response.json(shared);
        },
      },
    });
    renderWithApp(<ChatPage />, `/chat?chat=${CHAT_ID}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Share link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share link' });
    expect((within(dialog).getByRole('textbox', { name: 'Link' }) as HTMLInputElement).value).toBe(
      `${location.origin}/p/AbCdEfGhIjKlMnOpQrStUv`,
    );
    expect(within(dialog).getByRole('button', { name: 'Copy link' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke link' }));
    await within(dialog).findByText('This chat has no share link yet.');
    expect(calls(`DELETE /api/v1/chats/${CHAT_ID}/share`)).toHaveLength(1);
  });

  it('offers an employee no public choice and no new link, but lets them revoke the link of their public chat', async () => {
    signedInAs('Employee');
    const publicChat = chat({
      id: OTHER_CHAT,
      name: 'Alt',
      visibility: 'public',
      shareToken: 'AbCdEfGhIjKlMnOpQrStUv',
    });
    server({
      chats: [chat(), publicChat],
      extra: { [`GET /api/v1/chats/${OTHER_CHAT}/messages`]: () => Response.json({ items: [] }) },
    });
    renderWithApp(<ChatPage />, `/chat?chat=${OTHER_CHAT}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Share link' }));
    const share = await screen.findByRole('dialog', { name: 'Share link' });
    expect(within(share).getByRole('button', { name: 'Revoke link' })).toBeTruthy();
    expect(within(share).queryByRole('button', { name: 'New link' })).toBeNull();
    fireEvent.click(within(share).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Share link' })).toBeNull());

    fireEvent.click(screen.getAllByRole('button', { name: 'New chat' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'New chat' });
    expect(within(dialog).queryByRole('radio', { name: /^Public/ })).toBeNull();
    expect(within(dialog).queryByRole('radiogroup')).toBeNull();
  });

  it("lets the data manager unshare, make private and delete a colleague's public chat", async () => {
    signedInAs('DataManager');
    const colleagues = chat({
      visibility: 'public',
      isOwner: false,
      ownerName: 'Kai Berg',
      shareToken: 'AbCdEfGhIjKlMnOpQrStUv',
    });
    const { calls } = server({
      chats: [colleagues],
      extra: {
        [`PATCH /api/v1/chats/${CHAT_ID}`]: () =>
          Response.json({ ...colleagues, visibility: 'private', shareToken: null }),
      },
    });
    renderWithApp(<ChatPage />, `/chat?chat=${CHAT_ID}`);
    await screen.findByRole('heading', { name: 'Heizungsfragen' });
    expect(screen.getByRole('button', { name: 'Delete chat' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Share link' }));
    const share = await screen.findByRole('dialog', { name: 'Share link' });
    expect(within(share).getByRole('button', { name: 'Revoke link' })).toBeTruthy();
    expect(within(share).getByRole('button', { name: 'New link' })).toBeTruthy();
    fireEvent.click(within(share).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Share link' })).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Edit chat' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit chat' });
    fireEvent.click(within(dialog).getByRole('radio', { name: /^Private/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    // Private again, the chat is the colleague's alone and leaves the screen.
    await screen.findByText('Choose a chat or start a new one.');
    expect(JSON.parse(calls(`PATCH /api/v1/chats/${CHAT_ID}`)[0]!.init.body as string)).toEqual({
      visibility: 'private',
    });
  });

  const weakConversation = () => [
    message({ id: QUESTION_ID, role: 'user', content: 'Was kostet ein Auspuff?' }),
    message({ content: 'Dazu habe ich nichts gefunden.', noAnswer: true }),
    message({ id: '8d7b4fc9-ac5f-4bc0-9e9f-806d3b8c9d08', role: 'user', content: 'Und eine Bremse?' }),
    message({ id: '9e8c50da-bd60-4cd1-8fa0-917e4c9dae09', content: 'Auch dazu nichts.', noAnswer: true }),
  ];

  it('tells a data manager once, under a weak built-in answer, that an AI provider writes answers', async () => {
    signedInAs('DataManager');
    server({ messages: weakConversation() });
    renderWithApp(<ChatPage />, `/chat?chat=${CHAT_ID}`);
    await screen.findByText('Auch dazu nichts.');
    const hints = within(log()).getAllByTestId('provider-hint');
    expect(hints).toHaveLength(1);
    expect(hints[0]!.textContent).toContain('Connect an AI provider');
    const link = within(hints[0]!).getByRole('link', { name: 'Set up an AI provider' });
    expect(link.getAttribute('href')).toBe('/ai-providers');
  });

  it('does not tell an employee about AI providers', async () => {
    signedInAs('Employee');
    server({ messages: weakConversation() });
    renderWithApp(<ChatPage />, `/chat?chat=${CHAT_ID}`);
    await screen.findByText('Auch dazu nichts.');
    expect(within(log()).queryByTestId('provider-hint')).toBeNull();
  });
});
