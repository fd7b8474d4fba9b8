/**
 * What the console was last given in a namespace (entity id and context), kept while the app runs so that leaving
 * the console and coming back finds it as it was rather than a new random id and no context. Per namespace, not per
 * flag: the entity and its context are "who is asking", which one tries against several flags. A reload starts
 * afresh, as a new visit does.
 */
import type { ContextDraft } from './context-json';

export interface ConsoleMemory {
  entityId: string;
  draft: ContextDraft;
}

const memories = new Map<string, ConsoleMemory>();

/** The console's last input in `ns`, or undefined when it was not opened there yet. */
export const recallConsole = (ns: string): ConsoleMemory | undefined => memories.get(ns);

export function rememberConsole(ns: string, memory: ConsoleMemory): void {
  memories.set(ns, memory);
}
