import { formatTimestamp } from '../common/timestamps';
import type { NamespaceResponse } from './namespace.dto';
import type { Namespace } from './namespace.entity';

export function toNamespaceResponse(n: Namespace): NamespaceResponse {
  return {
    key: n.key,
    name: n.name,
    description: n.description,
    protected: n.protected,
    createdAt: formatTimestamp(n.createdAt),
    updatedAt: formatTimestamp(n.updatedAt),
  };
}
