/**
 * The tag of what a namespace's flags are at a snapshot version: it changes with every write to the namespace (the
 * version is its stored modification time) and is the same on every instance. OFREP's bulk ETags start with it and
 * the event streams announce it (the `etag` of their events).
 */
import { createHash } from 'node:crypto';

/** Bumped when the answers' shape changes, so that tags from an older Flagpole stop matching. */
const ANSWER_FORMAT = 'ofrep-2';

export function namespaceTag(namespace: string, version: string): string {
  return digest(`${ANSWER_FORMAT}\u0000${namespace}\u0000${version}`);
}

/** A short SHA-1 of the text, URL-safe (ETags and tags built from it stay plain tokens). */
export function digest(text: string): string {
  return createHash('sha1').update(text).digest('base64url').slice(0, 16);
}
