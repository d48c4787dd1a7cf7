/** A part of a language's texts (`vite-locale-parts.ts`). */
declare module 'virtual:locale/*' {
  const texts: Record<string, unknown>;
  export default texts;
}

/** Per language, a loader of each part of its texts (`vite-locale-parts.ts`). */
declare module 'virtual:locale-loaders' {
  const loaders: Record<
    string,
    Record<'first' | 'signedIn', () => Promise<{ default: Record<string, unknown> }>>
  >;
  export default loaders;
}
