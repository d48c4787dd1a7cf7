/*
 * The website widget's launcher: a company's website includes it with
 *   <script src="https://<server>/widget.js" data-chat="<share token>" async></script>
 * It draws a button and a panel in a shadow root (the website's styles do not reach them) holding a frame of
 * the server's own widget page, which the website's scripts cannot read. The frame loads hidden; only when it says
 * it is ready (the widget is on, this website may frame it) does the button appear: otherwise nothing shows.
 * Plain JavaScript, no framework, no build step: it is served as it is.
 */
(() => {
  const script = document.currentScript || document.querySelector('script[data-chat][src*="widget.js"]');
  const token = script?.getAttribute('data-chat');
  if (!script || !token || !/^[A-Za-z0-9_-]{20,64}$/.test(token)) return;
  const origin = new URL(script.src, location.href).origin;

  const host = document.createElement('div');
  host.setAttribute('data-werkwissen-widget', '');
  const root = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = `
    :host { all: initial; }
    .launcher { position: fixed; bottom: 20px; inset-inline-end: 20px; z-index: 2147483000; width: 56px; height: 56px;
      border: 0; border-radius: 50%; padding: 0; cursor: pointer; color: #fff; background: #1f5fa8;
      box-shadow: 0 4px 14px rgba(0, 0, 0, .25); display: none; align-items: center; justify-content: center; }
    .launcher:focus-visible { outline: 3px solid #000; outline-offset: 3px; }
    .launcher svg { width: 28px; height: 28px; }
    .panel { position: fixed; bottom: 88px; inset-inline-end: 20px; z-index: 2147483000; width: 380px; height: 600px;
      max-width: calc(100vw - 40px); max-height: calc(100vh - 108px); border-radius: 12px; overflow: hidden;
      box-shadow: 0 8px 30px rgba(0, 0, 0, .3); background: #fff; visibility: hidden; }
    .panel.open { visibility: visible; }
    iframe { width: 100%; height: 100%; border: 0; display: block; }
  `;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'launcher';
  button.setAttribute('aria-expanded', 'false');
  button.innerHTML =
    '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" ' +
    'stroke-linejoin="round" aria-hidden="true"><path d="M3 20l1.3-3.9A9 8 0 1 1 7.7 19L3 20"/></svg>';
  const panel = document.createElement('div');
  panel.className = 'panel';
  const frame = document.createElement('iframe');
  frame.src = `${origin}/widget/${encodeURIComponent(token)}`;
  frame.setAttribute('allow', 'clipboard-write');
  panel.appendChild(frame);
  root.append(style, panel, button);

  const labels = { open: '', close: '' };
  const setOpen = (open) => {
    panel.classList.toggle('open', open);
    button.setAttribute('aria-expanded', String(open));
    button.setAttribute('aria-label', open ? labels.close : labels.open);
    button.title = button.getAttribute('aria-label');
    if (open) frame.focus();
  };
  button.addEventListener('click', () => setOpen(!panel.classList.contains('open')));

  window.addEventListener('message', (event) => {
    // Only the widget's own frame speaks to the launcher.
    if (event.origin !== origin || event.source !== frame.contentWindow) return;
    const data = event.data;
    if (data?.source !== 'werkwissen-widget') return;
    if (data.type === 'ready') {
      labels.open = String(data.openLabel || '');
      labels.close = String(data.closeLabel || '');
      frame.title = String(data.title || '');
      if (/^#[0-9a-fA-F]{6}$/.test(data.color || '')) button.style.background = data.color;
      host.dir = data.dir === 'rtl' ? 'rtl' : 'ltr';
      button.style.display = 'flex';
      setOpen(false);
    } else if (data.type === 'close') {
      setOpen(false);
      button.focus();
    }
  });

  const attach = () => document.body.appendChild(host);
  if (document.body) attach();
  else document.addEventListener('DOMContentLoaded', attach);
})();
