/**
 * A flag's metadata (a JSON object the API keeps as it is given and evaluation ignores) as rows the user can edit:
 * each a key, a type and the value as text. `rowsOf` and `metadataOf` convert both ways; `metadataOf` says what is
 * wrong instead when a row cannot be converted.
 */
export type MetadataType = 'string' | 'number' | 'boolean' | 'json';

export interface MetadataRow {
  key: string;
  type: MetadataType;
  /** As typed: a number's digits, "true"/"false", or JSON text. */
  text: string;
}

export function rowsOf(metadata: Record<string, unknown> | undefined): MetadataRow[] {
  return Object.entries(metadata ?? {}).map(([key, value]) => {
    if (typeof value === 'string') return { key, type: 'string', text: value };
    if (typeof value === 'number') return { key, type: 'number', text: String(value) };
    if (typeof value === 'boolean') return { key, type: 'boolean', text: String(value) };
    return { key, type: 'json', text: JSON.stringify(value, null, 2) };
  });
}

export type Converted = { metadata: Record<string, unknown>; problem?: undefined } | { metadata?: undefined; problem: string };

export function metadataOf(rows: MetadataRow[]): Converted {
  const metadata: Record<string, unknown> = {};
  for (const [i, row] of rows.entries()) {
    const key = row.key.trim();
    const where = key ? `"${key}"` : `Row ${i + 1}`;
    if (!key) return { problem: `Row ${i + 1} needs a key.` };
    if (key in metadata) return { problem: `The key "${key}" is there twice.` };
    switch (row.type) {
      case 'string':
        metadata[key] = row.text;
        break;
      case 'number': {
        const n = Number(row.text.trim());
        if (!row.text.trim() || !Number.isFinite(n)) return { problem: `${where} is not a number.` };
        metadata[key] = n;
        break;
      }
      case 'boolean':
        if (row.text !== 'true' && row.text !== 'false') return { problem: `${where} must be true or false.` };
        metadata[key] = row.text === 'true';
        break;
      case 'json':
        try {
          metadata[key] = JSON.parse(row.text);
        } catch (e) {
          return { problem: `${where} is not valid JSON: ${(e as Error).message}` };
        }
        break;
    }
  }
  return { metadata };
}

/** The text a value of `type` starts with when the type is changed. */
export function blankOf(type: MetadataType): string {
  return type === 'boolean' ? 'true' : type === 'json' ? '{}' : '';
}
