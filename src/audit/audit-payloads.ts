/**
 * The payload of each event type, in Flipt's audit shapes (snake_case, `types.go`): created and updated events carry
 * the object as the write answered it (the API's JSON, mapped here); deleted events carry what identified the deleted
 * thing (the request's fields, as Flipt's delete requests do). Also which resource an event is about (AuditSubject).
 */
import type { AuditAction, AuditSubject, AuditType } from './audit-event';

type Json = Record<string, unknown>;

const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const obj = (v: unknown): Json => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.map(obj) : []);

/** A rule's or rollout's segments as Flipt's audit writes them: one key, or the keys joined with the operator. */
function segmentRef(keyField: unknown, keys: unknown, operator: unknown): { key: string; operator?: string } {
  const single = text(keyField);
  const many = Array.isArray(keys) ? keys.map(text) : [];
  return single === '' && many.length > 0 ? { key: many.join(','), operator: text(operator) } : { key: single };
}

const distribution = (d: Json): Json => ({ id: text(d.id), rule_id: text(d.ruleId), variant_id: text(d.variantId), rollout: num(d.rollout) });

const variant = (v: Json): Json => ({
  id: text(v.id), flag_key: text(v.flagKey), key: text(v.key), name: text(v.name), description: text(v.description),
  attachment: text(v.attachment), namespace_key: text(v.namespaceKey),
});

const constraint = (c: Json): Json => ({
  id: text(c.id), segment_key: text(c.segmentKey), type: text(c.type), property: text(c.property), operator: text(c.operator),
  value: text(c.value), namespace_key: text(c.namespaceKey),
});

/** Created and updated payloads, from the API's answer to the write. */
const FROM_ANSWER: Record<Exclude<AuditType, 'token'>, (a: Json) => Json> = {
  namespace: (n) => ({ key: text(n.key), name: text(n.name), description: text(n.description), protected: n.protected === true }),
  flag: (f) => ({
    key: text(f.key), name: text(f.name), description: text(f.description), enabled: f.enabled === true,
    namespace_key: text(f.namespaceKey), ...(f.defaultVariant ? { default_variant: text(obj(f.defaultVariant).key) } : {}),
  }),
  variant,
  segment: (s) => ({
    key: text(s.key), name: text(s.name), description: text(s.description), constraints: list(s.constraints).map(constraint),
    match_type: text(s.matchType), namespace_key: text(s.namespaceKey),
  }),
  constraint,
  rule: (r) => {
    const segment = segmentRef(r.segmentKey, r.segmentKeys, r.segmentOperator);
    return {
      id: text(r.id), flag_key: text(r.flagKey), segment_key: segment.key, distributions: list(r.distributions).map(distribution),
      rank: num(r.rank), namespace_key: text(r.namespaceKey), ...(segment.operator ? { segment_operator: segment.operator } : {}),
    };
  },
  distribution,
  schedule: (s) => ({
    id: text(s.id), namespace_key: text(s.namespaceKey), flag_key: text(s.flagKey), type: text(s.type), status: text(s.status),
    description: text(s.description), steps: list(s.steps),
    ...(s.rolloutId ? { rollout_id: text(s.rolloutId) } : {}), ...(s.ruleId ? { rule_id: text(s.ruleId) } : {}),
  }),
  rollout: (r) => {
    const out: Json = { id: text(r.id), namespace_key: text(r.namespaceKey), flag_key: text(r.flagKey), rank: num(r.rank), description: text(r.description) };
    if (r.threshold) out.threshold = { percentage: num(obj(r.threshold).percentage), value: obj(r.threshold).value === true };
    if (r.segment) {
      const s = obj(r.segment);
      const ref = segmentRef(s.segmentKey, s.segmentKeys, s.segmentOperator);
      out.segment = { key: ref.key, value: s.value === true, ...(ref.operator ? { operator: ref.operator } : {}) };
    }
    return out;
  },
};

export function payloadFromAnswer(type: Exclude<AuditType, 'token'>, answer: unknown): Json {
  return FROM_ANSWER[type](obj(answer));
}

/**
 * Children written through routes of their own, as events of their own: a segment's constraints, a rule's
 * distributions. The parent's previous event does not know of their changes since, and an update of the parent cannot
 * change them (Flipt's update requests do not carry them), so the update's `before` takes them from its payload: its
 * diff then shows only what the update changed (a segment's saved description used to show its constraints removed
 * and added).
 */
const CHILDREN_WITH_OWN_EVENTS: Partial<Record<AuditType, string>> = { segment: 'constraints', rule: 'distributions' };

/** The `before` of an update: the resource's previous payload, its children as they are now. */
export function beforeUpdate(type: AuditType, previous: Json, payload: Json): Json {
  const children = CHILDREN_WITH_OWN_EVENTS[type];
  return children && children in payload ? { ...previous, [children]: payload[children] } : previous;
}

/** Route parameter and field names in the payload's spelling. */
const SNAKE: Record<string, string> = {
  namespaceKey: 'namespace_key', flagKey: 'flag_key', segmentKey: 'segment_key', ruleId: 'rule_id', variantId: 'variant_id',
  ruleIds: 'rule_ids', rolloutIds: 'rollout_ids', expiresAt: 'expires_at',
};

/** A request's identifying fields (path parameters, and the namespace the request resolved) in Flipt's spelling. */
export function payloadFromRequest(fields: Record<string, unknown>): Json {
  const out: Json = {};
  for (const [name, value] of Object.entries(fields)) if (value !== undefined && value !== '') out[SNAKE[name] ?? name] = value;
  return out;
}

/**
 * The resource an event is about. Things with ids (variants, rules, …) are named by namespace and id; flags, segments
 * and namespaces by key, since a key can be deleted and created again and still be "the same flag" to its readers.
 */
export function subjectOf(type: AuditType, action: AuditAction, payload: Json, namespace: string | null, route: Json): AuditSubject {
  const flag = text(payload.flag_key) || text(route.flagKey) || (type === 'flag' ? text(payload.key) : '');
  const segment = text(payload.segment_key) || text(route.segmentKey) || (type === 'segment' ? text(payload.key) : '');
  const ns = type === 'token' ? null : type === 'namespace' ? text(payload.key) || text(payload.namespace_key) : namespace;
  const id = text(payload.id);
  let resource: string;
  switch (type) {
    case 'namespace':
      resource = `namespace:${ns}`;
      break;
    case 'flag':
      resource = `flag:${ns}/${flag}`;
      break;
    case 'segment':
      resource = `segment:${ns}/${segment}`;
      break;
    case 'token':
      resource = `token:${id}`;
      break;
    default:
      // Ids are named within their namespace: a request naming another namespace's id through this one's path must
      // neither see nor cut that id's history there. A reorder names no single rule or rollout: it is about the
      // flag's order.
      resource = id ? `${type}:${ns}/${id}` : `${type}:${ns}/${flag}:${action}`;
  }
  return {
    namespace: ns || null,
    flag: type === 'segment' || type === 'constraint' || type === 'namespace' || type === 'token' ? null : flag || null,
    segment: type === 'segment' || type === 'constraint' ? segment || null : null,
    resource,
  };
}

/** A token's creation: the request's fields (as Flipt's payload is its CreateTokenRequest) and the new id; never the secret. */
export function createdTokenPayload(request: { body: unknown }, answer: unknown): Json {
  const body = obj(request.body);
  return payloadFromRequest({
    id: text(obj(obj(answer).authentication).id),
    name: body.name,
    description: body.description,
    namespaceKey: body.namespaceKey ?? body.namespace_key,
    expiresAt: body.expiresAt ?? body.expires_at,
  });
}

/** `PUT /auth/v1/self/expire`: the caller's own authentication, and the expiry it asked for (absent: now). */
export function expiredSelfPayload(request: { query: unknown; authentication?: { id: string } }): Json {
  const query = obj(request.query);
  return payloadFromRequest({ id: request.authentication?.id, expiresAt: query.expiresAt ?? query.expires_at ?? new Date().toISOString() });
}
