import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local reranking service speaking the documented `/v1/rerank` protocol of Jina, Cohere, vLLM and llama.cpp
 * (`POST {model, query, documents, top_n}` → `{results: [{index, relevance_score}]}`), so that the product's
 * reranking is tested over real HTTP. Its judgement is scripted: a document holding `prefer` scores highest, the
 * others by the share of the query's words they hold. `failWith` answers every request with that status; the
 * requests it received are kept.
 */
export interface FakeReranker {
  url: string;
  requests: Array<{
    model?: string;
    query: string;
    documents: string[];
    top_n?: number;
    authorization?: string;
  }>;
  prefer: string | null;
  failWith: number | null;
  close(): Promise<void>;
}

const read = async (req: IncomingMessage) => {
  let body = '';
  for await (const chunk of req) body += chunk;
  return JSON.parse(body) as { model?: string; query: string; documents: string[]; top_n?: number };
};

export async function startFakeReranker(): Promise<FakeReranker> {
  const fake: FakeReranker = { url: '', requests: [], prefer: null, failWith: null, close: async () => {} };
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST' || req.url !== '/v1/rerank') {
        res.writeHead(404).end();
        return;
      }
      const body = await read(req);
      fake.requests.push({ ...body, authorization: req.headers.authorization });
      if (fake.failWith) {
        res.writeHead(fake.failWith, { 'content-type': 'application/json' }).end('{"error":"down"}');
        return;
      }
      const words = body.query.toLowerCase().match(/\p{L}+/gu) ?? [];
      const results = body.documents
        .map((doc, index) => {
          const text = doc.toLowerCase();
          const share = words.filter((w) => text.includes(w)).length / Math.max(1, words.length);
          return { index, relevance_score: fake.prefer && doc.includes(fake.prefer) ? 1 + share : share };
        })
        .sort((a, b) => b.relevance_score - a.relevance_score)
        .slice(0, body.top_n ?? body.documents.length);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise((resolve) => server.close(() => resolve()));
  return fake;
}
