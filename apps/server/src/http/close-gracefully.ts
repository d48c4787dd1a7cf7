import type { FastifyInstance } from 'fastify';
import type { OpenStreams } from './open-streams.ts';

/** How long ended answer streams may take to store their answers and send their last events. */
const STREAM_END_MS = 5_000;

/**
 * Stops the API without losing what is under way: the port closes and requests that still arrive on open
 * connections get 503 `SERVICE_UNAVAILABLE`; open answer streams end at once with an `error` event
 * (`SERVER_STOPPING`) after storing their partial answer; other requests in flight may finish within `graceMs`,
 * after which the connections still open are cut. Keep-alive connections are closed as soon as they fall idle.
 */
export async function closeGracefully(
  app: FastifyInstance,
  streams: OpenStreams,
  graceMs: number,
): Promise<void> {
  const closing = app.close();
  await streams.endAll(STREAM_END_MS);
  const idle = setInterval(() => app.server.closeIdleConnections(), 100);
  const cut = setTimeout(() => app.server.closeAllConnections(), graceMs);
  try {
    await closing;
  } finally {
    clearInterval(idle);
    clearTimeout(cut);
  }
}
