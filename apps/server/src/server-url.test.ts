import { describe, expect, it } from 'vitest';
import { startTestServer } from '../test/support/test-server.ts';
import { publicUrlWarningFor, serverUrl } from './server.ts';

describe('the address printed at start', () => {
  it.each(['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost'])(
    'names this machine as localhost for %s',
    (host) => {
      expect(serverUrl(host, 4545)).toBe('http://localhost:4545');
    },
  );

  it('names any other interface as it is (an IPv6 address in brackets)', () => {
    expect(serverUrl('192.168.1.20', 8080)).toBe('http://192.168.1.20:8080');
    expect(serverUrl('fd00::20', 8080)).toBe('http://[fd00::20]:8080');
  });
});

describe('the warning about PUBLIC_URL at start', () => {
  const config = (HOST: string, publicUrlDefaulted: boolean) => ({
    HOST,
    PUBLIC_URL: publicUrlDefaulted ? 'http://localhost:4545' : 'https://wissen.example.com',
    publicUrlDefaulted,
  });

  it.each(['0.0.0.0', '::', '192.168.1.20', 'wissen.internal'])(
    'is given when PUBLIC_URL is unset and the server listens on %s',
    (host) => {
      expect(publicUrlWarningFor(config(host, true))).toMatch(
        /PUBLIC_URL is not set.*http:\/\/localhost:4545/,
      );
    },
  );

  it.each(['127.0.0.1', '127.0.1.1', '::1', 'localhost'])(
    'is not given on the loopback address %s',
    (host) => {
      expect(publicUrlWarningFor(config(host, true))).toBeNull();
    },
  );

  it('is not given when PUBLIC_URL is set', () => {
    expect(publicUrlWarningFor(config('0.0.0.0', false))).toBeNull();
  });

  it('is logged by a starting server that other machines reach', async () => {
    const t = await startTestServer({ env: { HOST: '0.0.0.0' }, smtp: false });
    try {
      expect(t.logs.some((line) => /"level":40.*PUBLIC_URL is not set/.test(line))).toBe(true);
    } finally {
      await t.close();
    }
  });
});
