/**
 * Whether a `?to=` return path stays on this site: a path (`/x`), never `//host` or `/\host`, and without whitespace,
 * backslashes or control characters, which a browser drops or reads as `/` when it resolves a URL (`/\t/evil.example`
 * is `//evil.example` to it). The server's check (`returnPathField`) and the browser's guard both ask this one.
 */
export function isReturnPath(value: string): boolean {
  return value.length <= 2000 && /^\/(?![/\\])[^\s\\\p{Cc}]*$/u.test(value);
}
