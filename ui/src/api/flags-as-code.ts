/** A namespace as a Flipt-format document (flags as code): export it, import one into it. */
import { api, enc } from './client';
import type { ImportResult } from './types';

export type DocumentFormat = 'yaml' | 'json';

export interface ImportOptions {
  skipExisting: boolean;
  drop: boolean;
}

const base = (namespace: string) => `api/v1/namespaces/${enc(namespace)}`;

export const exportNamespace = (namespace: string, format: DocumentFormat = 'yaml') =>
  api.get<string>(`${base(namespace)}/export`, { query: { format }, raw: true, headers: { accept: format === 'json' ? 'application/json' : 'application/yaml' } });

/** JSON when the text starts as JSON does, YAML otherwise (the server reads both either way). */
export const importDocument = (namespace: string, document: string, options: ImportOptions) =>
  api.post<ImportResult>(`${base(namespace)}/import`, undefined, {
    query: { skipExisting: options.skipExisting || undefined, drop: options.drop || undefined },
    text: { body: document, contentType: /^\s*[{[]/.test(document) ? 'application/json' : 'application/yaml' },
  });
