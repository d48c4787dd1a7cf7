/**
 * @vitest-environment-options {"settings": {"disableIframePageLoading": true}}
 */
import { afterEach, describe, expect, it } from 'vitest';
/** The launcher a company's website includes, served as it is written. */
import LAUNCHER from '../public/widget.js?raw';

const SERVER = 'https://chat.example';
const TOKEN = 'abcdefghijklmnopqrstuvwx';

/** Includes the launcher as the snippet does and returns what it drew. */
function include(token = TOKEN) {
  const script = document.createElement('script');
  // Not run by the document: the test runs its text, as the browser would after loading it.
  script.type = 'text/plain';
  script.setAttribute('src', `${SERVER}/widget.js`);
  script.setAttribute('data-chat', token);
  document.body.appendChild(script);
  new Function(LAUNCHER)();
  const host = document.querySelector<HTMLElement>('[data-werkwissen-widget]');
  const root = host?.shadowRoot;
  return {
    host,
    button: root?.querySelector('button') ?? null,
    panel: root?.querySelector<HTMLElement>('.panel') ?? null,
    frame: root?.querySelector('iframe') ?? null,
  };
}

function tell(from: { origin: string; source: unknown }, data: Record<string, string>) {
  window.dispatchEvent(
    new MessageEvent('message', {
      data: { source: 'werkwissen-widget', ...data },
      origin: from.origin,
      source: from.source as Window,
    }),
  );
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the website widget launcher', () => {
  it("loads the server's widget page in a frame and shows no button until the frame says it is ready", () => {
    const { host, button, frame, panel } = include();
    expect(host).not.toBeNull();
    expect(frame!.getAttribute('src')).toBe(`${SERVER}/widget/${TOKEN}`);
    expect(button!.style.display).toBe('');
    expect(panel!.classList.contains('open')).toBe(false);
  });

  it('listens only to its own frame of its own server', () => {
    const { button, frame } = include();
    const ready = { type: 'ready', color: '#aa3300', openLabel: 'Open chat', closeLabel: 'Close chat' };
    tell({ origin: 'https://evil.example', source: frame!.contentWindow }, ready);
    tell({ origin: SERVER, source: window }, ready);
    expect(button!.style.display).toBe('');
    tell({ origin: SERVER, source: frame!.contentWindow }, ready);
    expect(button!.style.display).toBe('flex');
  });

  it('shows the button in the company colour and language, opens and closes the panel', () => {
    const { host, button, frame, panel } = include();
    const own = { origin: SERVER, source: frame!.contentWindow };
    tell(own, {
      type: 'ready',
      color: '#aa3300',
      title: 'Kundenfragen',
      dir: 'rtl',
      openLabel: 'فتح المحادثة',
      closeLabel: 'إغلاق المحادثة',
    });
    expect(button!.style.background).toMatch(/#aa3300|rgb\(170, 51, 0\)/);
    expect(button!.getAttribute('aria-label')).toBe('فتح المحادثة');
    expect(host!.dir).toBe('rtl');
    expect(frame!.title).toBe('Kundenfragen');

    button!.click();
    expect(panel!.classList.contains('open')).toBe(true);
    expect(button!.getAttribute('aria-expanded')).toBe('true');
    expect(button!.getAttribute('aria-label')).toBe('إغلاق المحادثة');

    tell(own, { type: 'close' });
    expect(panel!.classList.contains('open')).toBe(false);
    expect(button!.getAttribute('aria-expanded')).toBe('false');
  });

  it('ignores a colour that is not one and draws nothing for a token that is not one', () => {
    const { button, frame } = include();
    tell({ origin: SERVER, source: frame!.contentWindow }, { type: 'ready', color: 'red;background:url(x)' });
    expect(button!.style.background).toBe('');
    document.body.innerHTML = '';
    expect(include('../../etc').host).toBeNull();
  });
});
