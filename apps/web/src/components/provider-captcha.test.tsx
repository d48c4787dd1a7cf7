import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../test/render.tsx';
import { BotCheck } from './bot-check.tsx';

afterEach(() => {
  vi.restoreAllMocks();
  delete (window as unknown as Record<string, unknown>).turnstile;
  delete (window as unknown as Record<string, unknown>).grecaptcha;
});

/** The scripts the page adds, held back from jsdom (which loads none): the test plays the network. */
function catchScripts() {
  const added: HTMLScriptElement[] = [];
  vi.spyOn(document.head, 'appendChild').mockImplementation(<T extends Node>(node: T) => {
    added.push(node as unknown as HTMLScriptElement);
    return node;
  });
  return (prefix: string) => {
    const script = added.find((s) => s.src.startsWith(prefix));
    if (!script) throw new Error(`no script from ${prefix}`);
    return script;
  };
}

describe('reCAPTCHA and Turnstile widgets', () => {
  it('loads the Turnstile script only when the widget is shown, renders it with the site key and hands on its token', async () => {
    const scriptTag = catchScripts();
    const onChange = vi.fn();
    expect(() => scriptTag('https://challenges.cloudflare.com')).toThrow();
    renderWithApp(<BotCheck provider="turnstile" siteKey="site-key-1" onChange={onChange} />);
    const script = await waitFor(() => scriptTag('https://challenges.cloudflare.com/turnstile/v0/api.js'));
    const render = vi.fn();
    (window as unknown as Record<string, unknown>).turnstile = { render };
    act(() => script.onload?.(new Event('load')));
    await waitFor(() => expect(render).toHaveBeenCalled());
    const options = render.mock.calls[0]![1] as Record<string, (token?: string) => void>;
    expect(options.sitekey).toBe('site-key-1');
    act(() => options.callback!('token-1'));
    expect(onChange).toHaveBeenLastCalledWith('token-1');
    act(() => options['expired-callback']!());
    expect(onChange).toHaveBeenLastCalledWith(null);
  });

  it('waits for reCAPTCHA to be ready, and says so when its script cannot be loaded', async () => {
    const scriptTag = catchScripts();
    renderWithApp(<BotCheck provider="recaptcha" siteKey="site-key-2" onChange={vi.fn()} />);
    const script = await waitFor(() => scriptTag('https://www.google.com/recaptcha/api.js?render=explicit'));
    act(() => script.onerror?.(new Event('error')));
    await screen.findByText(/could not be loaded/i);
  });
});
