import { api } from './client';
import type { MetaInfo, UiSettings } from './types';

/** Open when authentication is not required; a 401 here means the UI must show the login page. */
export const getMetaInfo = () => api.get<MetaInfo>('meta/info', { probe: true });

/** The `ui` section of the effective configuration (top bar label and colour, theme). */
export async function getUiSettings(): Promise<UiSettings> {
  return (await api.get<{ ui?: UiSettings }>('meta/config', { probe: true })).ui ?? {};
}
