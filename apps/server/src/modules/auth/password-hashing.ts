import { hash, verify } from '@node-rs/argon2';

// `Algorithm.Argon2id` is an ambient const enum (2), which isolated modules cannot import.
const ARGON2ID = 2;
const options = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** argon2id with the OWASP-recommended minimum parameters. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

// Verified when the account does not exist, so that unknown and known addresses take the same time.
const dummyHash = hash('not-a-real-password-1', options);

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  try {
    const matches = await verify(passwordHash ?? (await dummyHash), password);
    return passwordHash !== null && matches;
  } catch {
    return false;
  }
}
