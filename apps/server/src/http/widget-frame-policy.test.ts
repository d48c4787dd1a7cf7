import { describe, expect, it } from 'vitest';
import { withFrameAncestors } from './widget-frame-policy.ts';

const POLICY = "default-src 'self';script-src 'self';frame-ancestors 'none';object-src 'none'";

describe('withFrameAncestors', () => {
  it('lets exactly the given origins frame the page and keeps every other directive', () => {
    expect(withFrameAncestors(POLICY, ['https://shop.example', 'http://localhost:8080'])).toBe(
      "default-src 'self';script-src 'self';object-src 'none';frame-ancestors https://shop.example http://localhost:8080",
    );
  });

  it('lets nobody frame it without origins, also when the policy had no frame-ancestors', () => {
    expect(withFrameAncestors(POLICY, [])).toBe(
      "default-src 'self';script-src 'self';object-src 'none';frame-ancestors 'none'",
    );
    expect(withFrameAncestors("default-src 'self'", [])).toBe("default-src 'self';frame-ancestors 'none'");
  });
});
