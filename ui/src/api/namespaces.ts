import { api, enc } from './client';
import type { Namespace, Page } from './types';

const base = 'api/v1/namespaces';

export interface NamespaceInput {
  key: string;
  name: string;
  description: string;
}

/** Every namespace: there are few, and the switcher needs them all. */
export async function listNamespaces(signal?: AbortSignal): Promise<Namespace[]> {
  return (await api.get<{ namespaces: Namespace[] } & Page>(base, { signal })).namespaces;
}

/** One namespace; a 404 (`namespace "x" not found`) says it does not exist. */
export const getNamespace = (key: string, signal?: AbortSignal) => api.get<Namespace>(`${base}/${enc(key)}`, { signal });

export const createNamespace = (input: NamespaceInput) => api.post<Namespace>(base, input);

export const updateNamespace = (input: NamespaceInput) =>
  api.put<Namespace>(`${base}/${enc(input.key)}`, { name: input.name, description: input.description });

export const deleteNamespace = (key: string) => api.delete(`${base}/${enc(key)}`);
