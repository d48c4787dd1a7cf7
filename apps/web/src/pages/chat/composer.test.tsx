import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../test/render.tsx';
import { Composer } from './composer.tsx';

describe('the chat composer', () => {
  it('closes the send tooltip once the question is sent', async () => {
    const onSend = vi.fn(() => new Promise<'answered'>(() => {}));
    renderWithApp(<Composer canAsk streaming={false} onSend={onSend} onStop={() => {}} />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Your question' }), {
      target: { value: 'Wie oft wird der Brenner gewartet?' },
    });
    const send = screen.getByRole('button', { name: 'Send' });
    fireEvent.mouseOver(send);
    await screen.findByRole('tooltip');

    fireEvent.click(send);
    expect(onSend).toHaveBeenCalledWith('Wie oft wird der Brenner gewartet?');
    // The pointer is still over the (now disabled) button: the tooltip must not stay.
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
  });
});
