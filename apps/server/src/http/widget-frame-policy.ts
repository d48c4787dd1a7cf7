/**
 * The page's Content-Security-Policy with `frame-ancestors` set to the given origins (`'none'` for none): the
 * widget page of a public chat may be framed by its allowed websites, every other page by no one.
 */
export function withFrameAncestors(policy: string, origins: string[]): string {
  const ancestors = `frame-ancestors ${origins.length > 0 ? origins.join(' ') : "'none'"}`;
  const directives = policy
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d && !/^frame-ancestors(\s|$)/i.test(d));
  return [...directives, ancestors].join(';');
}
