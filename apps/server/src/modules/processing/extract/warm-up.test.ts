import { expect, it } from 'vitest';
import { warmUpReaders } from './warm-up.ts';

it("reads its own PDF in a standard font without font data, as a parser's warm-up", async () => {
  expect(await warmUpReaders()).toBe('Werkwissen');
});
