import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { type PublicChat, publicChatContracts, publicFeedbackContracts } from '@werkwissen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../test/fake-api.ts';
import { renderWithApp } from '../../test/render.tsx';
import PublicFeedbackPage from './public-feedback-page.tsx';

vi.mock('altcha', () => ({}));
afterEach(() => vi.unstubAllGlobals());

const TOKEN = 'a'.repeat(32);

describe('the public feedback page', () => {
  it('needs stars and the bot check, then sends both with the comment and thanks the visitor', async () => {
    const chat: PublicChat = {
      name: 'Kundenfragen',
      companyName: 'Heizung Müller GmbH',
      companyLogoUrl: '/api/v1/branding/companies/c1/logo?v=abc',
      companyColor: null,
      canAsk: true,
      botCheck: 'altcha',
      botCheckSiteKey: null,
      visitor: null,
    };
    const api = fakeApi()
      .on(publicChatContracts.get, () => chat)
      .on(publicFeedbackContracts.submit, () => ({ message: 'Thank you for your feedback!' }));
    renderWithApp(<PublicFeedbackPage />, `/feedback-21chatgpt?chat=${TOKEN}`);
    // The company's customers see the company whose chat they rate: its logo and name.
    const header = await screen.findByTestId('company-header');
    expect(header.textContent).toBe('Heizung Müller GmbH');
    expect(header.querySelector('img')?.getAttribute('src')).toBe(chat.companyLogoUrl);
    const posts = () => api.calls(publicFeedbackContracts.submit);
    fireEvent.click(screen.getByRole('button', { name: 'Send feedback' }));
    await screen.findByText('Please choose a rating.');
    fireEvent.click(screen.getByRole('radio', { name: '4 Stars' }));
    fireEvent.change(screen.getByLabelText('Comment (optional)'), {
      target: { value: 'Schnelle Antworten' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send feedback' }));
    await screen.findByText('Please confirm that you are not a bot first.');
    expect(posts()).toEqual([]);
    const widget = await waitFor(() => {
      const el = document.querySelector('altcha-widget');
      if (!el) throw new Error('no widget yet');
      return el;
    });
    act(() => {
      widget.dispatchEvent(
        new CustomEvent('statechange', { detail: { state: 'verified', payload: 'proof-9' } }),
      );
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send feedback' }));
    await screen.findByText('Thank you for your feedback!');
    // Not a dead end: the visitor goes back to the chat.
    expect(screen.getByRole('link', { name: 'Back to the chat' }).getAttribute('href')).toBe(`/p/${TOKEN}`);
    expect(posts().map((post) => post.body)).toEqual([
      {
        chatToken: TOKEN,
        rating: 4,
        comment: 'Schnelle Antworten',
        botCheck: 'proof-9',
      },
    ]);
  });

  it('says the link is incomplete without a chat', () => {
    const api = fakeApi();
    renderWithApp(<PublicFeedbackPage />, '/feedback-21chatgpt');
    expect(screen.getByText(/This feedback link is incomplete/)).toBeTruthy();
    expect(api.requests).toEqual([]);
  });

  it('shows the company’s colour on its buttons, and the product’s without one', async () => {
    const chat = (companyColor: string | null): PublicChat => ({
      name: 'Kundenfragen',
      companyName: 'Heizung Müller GmbH',
      companyLogoUrl: null,
      companyColor,
      canAsk: true,
      botCheck: 'off',
      botCheckSiteKey: null,
      visitor: null,
    });
    const submitColor = async (companyColor: string | null) => {
      fakeApi().on(publicChatContracts.get, () => chat(companyColor));
      const view = renderWithApp(<PublicFeedbackPage />, `/feedback-21chatgpt?chat=${TOKEN}`);
      await screen.findByTestId('company-header');
      const color = await waitFor(() => {
        const value = getComputedStyle(screen.getByRole('button', { name: 'Send feedback' })).backgroundColor;
        if (companyColor && value !== companyColor) throw new Error(value);
        return value;
      });
      view.unmount();
      return color;
    };
    expect(await submitColor('#1f5fa8')).toBe('#1f5fa8');
    expect(await submitColor(null)).not.toBe('#1f5fa8');
  });
});
