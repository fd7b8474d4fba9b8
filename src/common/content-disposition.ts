/**
 * A `Content-Disposition: attachment` header for any file name (RFC 6266): an ASCII `filename` with everything else
 * replaced by `_` (a header may carry only visible ASCII: Node refuses anything else, which was a 500), and the name
 * itself as `filename*` in UTF-8 (RFC 8187) for clients that read it.
 */
export function attachmentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return ascii === filename ? `attachment; filename="${filename}"` : `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
