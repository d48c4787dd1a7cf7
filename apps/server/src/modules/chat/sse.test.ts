import { EventEmitter } from 'node:events';
import type { FastifyReply } from 'fastify';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { SSE_FLUSH_MS, SseStream } from './sse.ts';

/** A reply whose response records each socket write. */
function recordingReply() {
  const writes: string[] = [];
  const raw = Object.assign(new EventEmitter(), {
    writableEnded: false,
    writableFinished: false,
    writeHead: () => {},
    flushHeaders: () => {},
    write: (chunk: string) => writes.push(chunk),
    end: () => {
      raw.writableEnded = true;
      raw.writableFinished = true;
    },
  });
  const reply = { raw, hijack: () => {}, getHeaders: () => ({}) } as unknown as FastifyReply;
  return { reply, raw, writes };
}

const token = (text: string) => ({ event: 'token', data: { text } }) as const;

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

it('sends an event at once after a quiet interval, and a burst of tokens in one write', () => {
  const { reply, writes } = recordingReply();
  const sse = new SseStream(reply);
  sse.send({ event: 'start', data: { questionId: 'q', messageId: 'm' } });
  expect(writes).toHaveLength(1);
  // The first words at once, although the start event was just written.
  sse.send(token('Der '), { now: true });
  expect(writes).toHaveLength(2);
  for (const word of ['Filter ', 'wird ', 'gereinigt.']) sse.send(token(word));
  expect(writes).toHaveLength(2);
  vi.advanceTimersByTime(SSE_FLUSH_MS);
  expect(writes).toHaveLength(3);
  expect(writes[2]).toBe(
    ['Filter ', 'wird ', 'gereinigt.'].map((t) => `event: token\ndata: {"text":"${t}"}\n\n`).join(''),
  );
  // Quiet again: the next event goes out at once.
  vi.advanceTimersByTime(SSE_FLUSH_MS);
  sse.send(token(' Mehr'));
  expect(writes).toHaveLength(4);
});

it('writes what is held back before it ends, and nothing after the client left', () => {
  const { reply, raw, writes } = recordingReply();
  const sse = new SseStream(reply);
  sse.sendData({ a: 1 });
  sse.sendData('[DONE]');
  expect(writes).toEqual(['data: {"a":1}\n\n']);
  sse.end();
  expect(writes).toEqual(['data: {"a":1}\n\n', 'data: [DONE]\n\n']);
  expect(raw.writableEnded).toBe(true);
  vi.advanceTimersByTime(SSE_FLUSH_MS);
  expect(writes).toHaveLength(2);

  const other = recordingReply();
  const left = new SseStream(other.reply);
  left.sendData('one');
  left.sendData('two');
  other.raw.emit('close');
  vi.advanceTimersByTime(SSE_FLUSH_MS);
  left.end();
  expect(other.writes).toEqual(['data: one\n\n']);
});
