import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serializerCompiler, servedAgain } from './serializer.ts';

let checks = 0;
const schema = z.object({
  name: z.string().refine(() => {
    checks++;
    return true;
  }),
  count: z.number(),
});
const compile = () => serializerCompiler({ schema, method: 'GET', url: '/x', httpStatus: '200' });

describe('the answer serializer', () => {
  it('checks and writes every answer anew, dropping what its schema does not declare', () => {
    const serialize = compile();
    const answer = { name: 'a', count: 1, secret: 'x' };
    checks = 0;
    expect(serialize(answer)).toBe('{"name":"a","count":1}');
    answer.count = 2;
    expect(serialize(answer)).toBe('{"name":"a","count":2}');
    expect(checks).toBe(2);
    expect(() => serialize({ name: 'a', count: 'many' })).toThrow();
  });

  it('checks an answer served again once and gives its text again, frozen so that it cannot change', () => {
    const serialize = compile();
    const answer = servedAgain({ name: 'b', count: 3, secret: 'x' });
    checks = 0;
    expect(serialize(answer)).toBe('{"name":"b","count":3}');
    expect(serialize(answer)).toBe('{"name":"b","count":3}');
    expect(checks).toBe(1);
    expect(Object.isFrozen(answer)).toBe(true);
    // Each route keeps its own texts: another route's serializer checks the same object itself.
    compile()(answer);
    expect(checks).toBe(2);
  });

  it('keeps no text of an answer served again that fails its schema', () => {
    const serialize = compile();
    const answer = servedAgain({ name: 'c', count: 'many' });
    expect(() => serialize(answer)).toThrow();
    expect(() => serialize(answer)).toThrow();
  });
});
