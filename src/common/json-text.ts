/**
 * Attachments are JSON text. Flipt compacts them (drops insignificant whitespace) but otherwise keeps the text as
 * written — number spellings like `1.50`, key order, escapes — so a parse/stringify round trip would not do.
 */
export function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Removes whitespace outside string literals. The input must be valid JSON. */
export function compactJson(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      out += ch;
      if (ch === '\\') out += text[++i];
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
      out += ch;
    } else if (ch !== ' ' && ch !== '\t' && ch !== '\n' && ch !== '\r') {
      out += ch;
    }
  }
  return out;
}
