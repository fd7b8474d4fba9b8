import { formatTimestamp } from '../common/timestamps';
import type { FlagResponse, VariantResponse } from './flag.dto';
import { FLAG_TYPE_NAMES, FlagType } from '../wire';
import type { Flag } from './flag.entity';
import type { Variant } from './variant.entity';

export function toVariantResponse(v: Variant, namespaceKey: string, flagKey: string): VariantResponse {
  return {
    id: v.id,
    flagKey,
    key: v.key,
    name: v.name,
    description: v.description,
    createdAt: formatTimestamp(v.createdAt),
    updatedAt: formatTimestamp(v.updatedAt),
    attachment: v.attachment ?? '',
    namespaceKey,
  };
}

/**
 * `metadata`: 'stored' emits it only when the flag has some (GetFlag); 'always' emits `{}` when it has none
 * (Flipt's ListFlags does so).
 */
export function toFlagResponse(f: Flag, metadata: 'stored' | 'always'): FlagResponse {
  const ns = f.namespace.key;
  const variants = f.variants.isInitialized() ? f.variants.getItems() : [];
  const out: FlagResponse = {
    key: f.key,
    name: f.name,
    description: f.description,
    enabled: f.enabled,
    createdAt: formatTimestamp(f.createdAt),
    updatedAt: formatTimestamp(f.updatedAt),
    variants: variants.map((v) => toVariantResponse(v, ns, f.key)),
    namespaceKey: ns,
    type: FLAG_TYPE_NAMES[f.type] ?? FLAG_TYPE_NAMES[FlagType.VARIANT],
  };
  const def = f.defaultVariantId ? variants.find((v) => v.id === f.defaultVariantId) : undefined;
  if (def) out.defaultVariant = toVariantResponse(def, ns, f.key);
  if (f.metadata !== null) out.metadata = JSON.parse(f.metadata) as Record<string, unknown>;
  else if (metadata === 'always') out.metadata = {};
  return out;
}
