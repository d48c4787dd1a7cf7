import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BuiltinEmbedder } from '../../src/modules/embedding/builtin-embedder.ts';

export interface FakeOpenAi {
  url: string;
  requests: Array<{ path: string; authorization: string | undefined; body: any }>;
  /** Answer the next requests with this HTTP status instead. */
  failWith: number | null;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (c) => {
      data += c;
    });
    req.on('end', () => resolve(data));
  });

/**
 * A local server speaking OpenAI's documented embeddings protocol (`POST /v1/embeddings` → `{ data: [{ index,
 * embedding }], model, usage }`), so that the openai embedder is tested over real HTTP. Its vectors are meaningful
 * (hashed features of the input) so that search over them finds things.
 */
export async function startFakeOpenAi(dimension = 16): Promise<FakeOpenAi> {
  const embedder = new BuiltinEmbedder(dimension);
  const state: FakeOpenAi = { url: '', requests: [], failWith: null, close: async () => {} };
  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const body = raw ? JSON.parse(raw) : null;
    state.requests.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
    res.setHeader('content-type', 'application/json');
    if (state.failWith) {
      res.statusCode = state.failWith;
      res.end(JSON.stringify({ error: { message: 'fake failure', type: 'server_error' } }));
      return;
    }
    if (req.method === 'POST' && req.url === '/v1/embeddings') {
      const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input];
      const vectors = inputs.map((t) => embedder.embedOne(t));
      res.end(
        JSON.stringify({
          object: 'list',
          model: body.model,
          data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })).reverse(),
          usage: { prompt_tokens: 1, total_tokens: 1 },
        }),
      );
      return;
    }
    res.statusCode = 404;
    res.end(JSON.stringify({ error: { message: 'not found' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () => new Promise((resolve) => server.close(() => resolve()));
  return state;
}
