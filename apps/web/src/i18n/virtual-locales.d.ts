/** A part of a language's texts (`vite-locale-parts.ts`). */
declare module 'virtual:locale/*' {
  const texts: Record<string, unknown>;
  export default texts;
}
