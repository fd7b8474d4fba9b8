/**
 * Client tokens as Flipt makes and stores them: 32 random bytes in base64 URL encoding with padding (44 characters),
 * stored only as the SHA-256 of the token's bytes in the same encoding. The token itself is never stored or logged.
 */
import { createHash, randomBytes } from 'node:crypto';

const TOKEN_BYTES = 32;

/** Go's `base64.URLEncoding`: the URL alphabet, padded (Node's 'base64url' drops the padding). */
export function base64UrlPadded(bytes: Buffer): string {
  return bytes.toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
}

export function generateClientToken(): string {
  return base64UrlPadded(randomBytes(TOKEN_BYTES));
}

/** A SHA-256 digest is 32 bytes: 43 base64 characters and one `=` of padding. */
export function hashClientToken(token: string): string {
  return `${createHash('sha256').update(token, 'utf8').digest('base64url')}=`;
}
