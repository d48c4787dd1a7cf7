import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Encrypts stored secrets (provider keys) with AES-256-GCM under a key derived from the installation's
 * ENCRYPTION_KEY. The stored form is `v1.<iv>.<tag>.<ciphertext>` in base64url; a changed or wrong key fails to open.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(encryptionKey: string) {
    this.#key = createHash('sha256').update(`werkwissen/secret-box/v1:${encryptionKey}`).digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}

/** How a saved key is shown: its start and its last four characters, never more than a third of it. */
export function maskKey(key: string): string {
  if (key.length <= 8) return '••••';
  const head = key.startsWith('sk-') ? 'sk-' : '';
  return `${head}…${key.slice(-4)}`;
}
