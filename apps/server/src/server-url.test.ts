import { describe, expect, it } from 'vitest';
import { serverUrl } from './server.ts';

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
