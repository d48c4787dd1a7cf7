import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../../test/render.tsx';
import { ChatList } from './chat-list.tsx';
import { chat } from './chat-test-data.ts';

describe('the chat list', () => {
  it('names the e-mail assistant’s conversations as coming from e-mail', async () => {
    const chats = [
      chat({ name: 'Heizungsfragen' }),
      chat({ id: '4f3d0b85-6e1b-4d86-8a5b-4c3f9d4e5f04', name: 'assistent@firma.example', source: 'email' }),
    ];
    renderWithApp(
      <ChatList
        chats={chats}
        error={null}
        search=""
        onSearch={() => {}}
        selectedId={null}
        onSelect={() => {}}
        onNew={() => {}}
      />,
    );
    const items = await screen.findAllByTestId('chat-list-item');
    expect(items[0]!.textContent).not.toContain('E-mail');
    expect(items[1]!.textContent).toContain('E-mail · Private');
  });
});
