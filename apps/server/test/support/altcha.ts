import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { ApiClient } from './api-client.ts';

/** Solves a fresh ALTCHA challenge of the server as the browser's widget does, and returns the widget's payload. */
export async function solvedAltcha(client: ApiClient): Promise<string> {
  const challenge = (await client.get('/public/altcha-challenge')).body;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the ALTCHA challenge was not solved in time');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
