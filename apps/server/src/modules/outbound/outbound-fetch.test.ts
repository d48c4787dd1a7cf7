import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addressAllowed,
  createOutboundFetch,
  isBlockedByPolicy,
  isPublicAddress,
  type OutboundPolicy,
  outboundPolicy,
  parseAllowedHosts,
} from './outbound-fetch.ts';

describe('address classification', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.20',
    '100.64.0.1',
    '100.127.255.254',
    '169.254.169.254',
    '224.0.0.1',
    '255.255.255.255',
    '192.0.2.10',
    '198.18.0.1',
    '240.0.0.1',
    '::',
    '::1',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'fec0::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.1.2.3',
    '::ffff:169.254.169.254',
    '::127.0.0.1',
    '64:ff9b::10.0.0.1',
    '64:ff9b:1::1',
    '2002:7f00:1::',
    '2001::1',
    '100::1',
    'not-an-address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '104.18.6.192',
    '2606:4700::6810:1',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:0808:0808::1',
  ])('lets %s through', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('the allow list', () => {
  it('reads names, addresses and ranges, each with an optional port', () => {
    const entries = parseAllowedHosts(
      ' localhost:11434, ollama.internal ,10.0.0.0/8,192.168.1.20:8000,[::1]:11434,fd00::/8',
    );
    expect(entries.map((e) => (e.kind === 'name' ? e.name : e.range[0].toString()))).toEqual([
      'localhost',
      'ollama.internal',
      '10.0.0.0',
      '192.168.1.20',
      '::1',
      'fd00::',
    ]);
    expect(entries.map((e) => e.port)).toEqual([11434, null, null, 8000, 11434, null]);
    expect(parseAllowedHosts('')).toEqual([]);
    expect(parseAllowedHosts(undefined)).toEqual([]);
    for (const bad of ['http://x', 'host:port', 'a b', '10.0.0.0/99', 'x:70000'])
      expect(() => parseAllowedHosts(bad)).toThrow();
  });

  const policy = (allowed: string, allowPrivate = false): OutboundPolicy =>
    outboundPolicy({ OUTBOUND_ALLOW_PRIVATE: allowPrivate, OUTBOUND_ALLOWED_HOSTS: allowed });

  it('allows a private address only by name, address or range, and only on the given port', () => {
    expect(addressAllowed(policy(''), 'localhost', 11434, '127.0.0.1')).toBe(false);
    expect(addressAllowed(policy('localhost:11434'), 'localhost', 11434, '127.0.0.1')).toBe(true);
    expect(addressAllowed(policy('localhost:11434'), 'LOCALHOST.', 11434, '::1')).toBe(true);
    expect(addressAllowed(policy('localhost:11434'), 'localhost', 5432, '127.0.0.1')).toBe(false);
    expect(addressAllowed(policy('localhost:11434'), 'evil.example', 11434, '127.0.0.1')).toBe(false);
    expect(addressAllowed(policy('127.0.0.1'), 'anything.example', 9, '127.0.0.1')).toBe(true);
    expect(addressAllowed(policy('127.0.0.1'), '::ffff:127.0.0.1', 9, '::ffff:127.0.0.1')).toBe(true);
    expect(addressAllowed(policy('127.0.0.1'), '127.0.0.2', 9, '127.0.0.2')).toBe(false);
    expect(addressAllowed(policy('10.0.0.0/8:8000'), 'x', 8000, '10.9.8.7')).toBe(true);
    expect(addressAllowed(policy('10.0.0.0/8:8000'), 'x', 8001, '10.9.8.7')).toBe(false);
    expect(addressAllowed(policy('[::1]'), 'x', 1, '::1')).toBe(true);
    expect(addressAllowed(policy('', true), 'x', 1, '169.254.169.254')).toBe(true);
    expect(addressAllowed(policy(''), 'x', 1, '8.8.8.8')).toBe(true);
  });
});

describe('the outbound fetch', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((_req, res) => res.end('hello'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const attempt = async (policy: OutboundPolicy, url: string) => {
    const outbound = createOutboundFetch(policy);
    try {
      const res = await outbound.fetch(url);
      return await res.text();
    } catch (error) {
      return isBlockedByPolicy(error) ? 'blocked' : `failed: ${String(error)}`;
    } finally {
      await outbound.close();
    }
  };
  const deny = outboundPolicy({ OUTBOUND_ALLOW_PRIVATE: false });

  it('refuses loopback by address, by name and in decimal, hexadecimal and IPv6 form', async () => {
    for (const host of ['127.0.0.1', 'localhost', '2130706433', '0x7f.0.0.1', '[::1]', '[::ffff:127.0.0.1]'])
      expect(await attempt(deny, `http://${host}:${port}/`), host).toBe('blocked');
  });

  // Refused by the address check before a socket opens: a connection attempt to these unreachable addresses would
  // end in a timeout error, not 'blocked'.
  it('refuses a private address without connecting', async () => {
    expect(await attempt(deny, 'http://10.0.0.1:81/')).toBe('blocked');
    expect(await attempt(deny, 'http://192.168.255.1/')).toBe('blocked');
    expect(await attempt(deny, 'http://169.254.169.254/latest/meta-data/')).toBe('blocked');
  });

  it('connects where the settings allow it', async () => {
    const allowed = (hosts: string) =>
      outboundPolicy({ OUTBOUND_ALLOW_PRIVATE: false, OUTBOUND_ALLOWED_HOSTS: hosts });
    expect(await attempt(allowed('127.0.0.1'), `http://127.0.0.1:${port}/`)).toBe('hello');
    expect(await attempt(allowed('127.0.0.1'), `http://2130706433:${port}/`)).toBe('hello');
    expect(await attempt(allowed(`localhost:${port}`), `http://localhost:${port}/`)).toBe('hello');
    expect(await attempt(allowed('localhost:1'), `http://localhost:${port}/`)).toBe('blocked');
    expect(await attempt(outboundPolicy({ OUTBOUND_ALLOW_PRIVATE: true }), `http://127.0.0.1:${port}/`)).toBe(
      'hello',
    );
  });

  it("sends a body built with the global FormData as multipart, as the AI SDK's uploads need", async () => {
    const receiving = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => res.end(JSON.stringify({ type: req.headers['content-type'], body })));
    });
    await new Promise<void>((resolve) => receiving.listen(0, '127.0.0.1', resolve));
    const outbound = createOutboundFetch(outboundPolicy({ OUTBOUND_ALLOW_PRIVATE: true }));
    try {
      const form = new FormData();
      form.append('model', 'whisper-1');
      form.append('file', new File(['RIFF'], 'audio.wav', { type: 'audio/wav' }));
      const res = await outbound.fetch(`http://127.0.0.1:${(receiving.address() as AddressInfo).port}/`, {
        method: 'POST',
        body: form,
        headers: { authorization: 'Bearer k' },
      });
      const { type, body } = (await res.json()) as { type: string; body: string };
      const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(type)?.[1];
      expect(boundary).toBeTruthy();
      expect(body).toContain(
        `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1`,
      );
      expect(body).toContain('filename="audio.wav"\r\nContent-Type: audio/wav\r\n\r\nRIFF');
    } finally {
      await outbound.close();
      await new Promise<void>((resolve) => receiving.close(() => resolve()));
    }
  });

  it('sends a global Request, a Blob and bytes as they are, with their method and headers', async () => {
    const receiving = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () =>
        res.end(
          JSON.stringify({
            method: req.method,
            type: req.headers['content-type'],
            key: req.headers['x-key'],
            body,
          }),
        ),
      );
    });
    await new Promise<void>((resolve) => receiving.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiving.address() as AddressInfo).port}/`;
    const outbound = createOutboundFetch(outboundPolicy({ OUTBOUND_ALLOW_PRIVATE: true }));
    const echo = async (response: Promise<Response>) => await (await response).json();
    try {
      const request = new Request(url, { method: 'PUT', headers: { 'x-key': 'k' }, body: 'from a Request' });
      expect(await echo(outbound.fetch(request))).toEqual({
        method: 'PUT',
        type: 'text/plain;charset=UTF-8',
        key: 'k',
        body: 'from a Request',
      });
      const blob = new Blob(['{"a":1}'], { type: 'application/json' });
      expect(await echo(outbound.fetch(url, { method: 'POST', body: blob }))).toMatchObject({
        type: 'application/json',
        body: '{"a":1}',
      });
      const bytes = new TextEncoder().encode('xbytesx').subarray(1, 6);
      expect(await echo(outbound.fetch(url, { method: 'POST', body: bytes }))).toMatchObject({
        body: 'bytes',
      });
    } finally {
      await outbound.close();
      await new Promise<void>((resolve) => receiving.close(() => resolve()));
    }
  });

  it('checks the target of a redirect too', async () => {
    const redirecting = createServer((_req, res) => {
      res.writeHead(302, { location: 'http://10.0.0.1/' }).end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    const hop = (redirecting.address() as AddressInfo).port;
    try {
      const policy = outboundPolicy({
        OUTBOUND_ALLOW_PRIVATE: false,
        OUTBOUND_ALLOWED_HOSTS: `127.0.0.1:${hop}`,
      });
      expect(await attempt(policy, `http://127.0.0.1:${hop}/`)).toBe('blocked');
    } finally {
      await new Promise<void>((resolve) => redirecting.close(() => resolve()));
    }
  });
});
