/**
 * Storage access for the flag aggregate: flags and their variants. Other features (rules, rollouts, distributions,
 * namespaces) look flags up here, never through the flags service.
 */
import { Injectable } from '@nestjs/common';
import type { EntityManager } from '@mikro-orm/core';
import { KeyedInNamespace } from '../storage/keyed-in-namespace';
import { namespacedRef } from '../storage/lookup';
import { Flag } from './flag.entity';
import { Variant } from './variant.entity';

/** How Flipt's messages name a flag: `flag "<namespace>/<key>"`. */
export function flagRef(namespaceKey: string, key: string): string {
  return namespacedRef('flag', namespaceKey, key);
}

@Injectable()
export class FlagRepository extends KeyedInNamespace<Flag> {
  constructor() {
    super(Flag, 'flag', 'variants');
  }

  countIn(em: EntityManager, namespaceKey: string): Promise<number> {
    return em.count(Flag, { namespace: namespaceKey });
  }

  /** Rules, distributions, variants and rollouts go with it (foreign keys cascade). */
  async delete(em: EntityManager, namespaceKey: string, key: string): Promise<void> {
    await em.nativeDelete(Flag, { namespace: namespaceKey, key });
  }

  /** All the namespace's flags: their rules and rollouts hold the references that keep segments from being deleted. */
  async deleteAllIn(em: EntityManager, namespaceKey: string): Promise<void> {
    await em.nativeDelete(Flag, { namespace: namespaceKey });
  }

  /** A variant of the flag `<namespaceKey>/<flagKey>`, or null. */
  findVariant(em: EntityManager, namespaceKey: string, flagKey: string, id: string): Promise<Variant | null> {
    return em.findOne(Variant, { id, flag: { key: flagKey, namespace: namespaceKey } });
  }

  /** A variant of any flag of the namespace, or null (distributions check no more than that, like Flipt). */
  findVariantIn(em: EntityManager, namespaceKey: string, id: string): Promise<Variant | null> {
    return em.findOne(Variant, { id, flag: { namespace: namespaceKey } });
  }

  /** `flag` may be an unloaded reference. */
  async variantKeyTaken(em: EntityManager, flag: Flag, key: string): Promise<boolean> {
    return (await em.count(Variant, { flag, key })) > 0;
  }

  /** The default variant is a plain column: it is cleared with the variant (whose distributions cascade). */
  async deleteVariant(em: EntityManager, variant: Variant): Promise<void> {
    await em.nativeUpdate(Flag, { id: variant.flag.id, defaultVariantId: variant.id }, { defaultVariantId: null });
    await em.nativeDelete(Variant, { id: variant.id });
  }
}
