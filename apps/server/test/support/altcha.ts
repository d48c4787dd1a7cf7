import { solveChallenge } from 'altcha-lib';
import type { ApiClient } from './api-client.ts';

/** Solves a fresh ALTCHA challenge of the server as the browser's widget does, and returns the widget's payload. */
export async function solvedAltcha(client: ApiClient): Promise<string> {
  const challenge = (await client.get('/public/altcha-challenge')).body;
  const solution = await solveChallenge(
    challenge.challenge,
    challenge.salt,
    challenge.algorithm,
    challenge.maxnumber,
  ).promise;
  return Buffer.from(
    JSON.stringify({
      algorithm: challenge.algorithm,
      challenge: challenge.challenge,
      number: solution!.number,
      salt: challenge.salt,
      signature: challenge.signature,
    }),
  ).toString('base64');
}
