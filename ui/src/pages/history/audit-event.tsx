/** One change of the audit trail: what was changed, by whom, when, and the change itself. */
import type { ReactNode } from 'react';
import type { AuditActor, AuditEvent, AuditPayload } from '../../api/audit';
import { ruleName, shortId, variantName, type AuditNames } from '../../lib/audit-names';
import { formatDate } from '../../lib/format';
import { relativeTime } from '../../lib/relative-time';
import { path } from '../../routing/hash-router';
import { Link } from '../../routing/link';
import { PayloadDiff } from './payload-diff';
import { useAuditNames } from './use-audit-names';

const TYPE_LABELS: Record<string, string> = {
  flag: 'Flag',
  variant: 'Variant',
  segment: 'Segment',
  constraint: 'Constraint',
  rule: 'Rule',
  distribution: 'Distribution',
  namespace: 'Namespace',
  rollout: 'Rollout',
  token: 'Token',
};

const METHOD_LABELS: Record<string, string> = {
  none: 'authentication off',
  token: 'static token',
  oidc: 'OIDC',
  github: 'GitHub',
  kubernetes: 'Kubernetes',
  jwt: 'JWT',
};

/** Events that name the flag's rules, rollouts or variants by id: they need the flag's names (useAuditNames). */
const NAMED_BY_ID = new Set(['rule', 'rollout', 'distribution']);

/**
 * `links`: the flag and segment keys lead to their pages (on the namespace's trail, not on a flag's own history).
 * `flagKey`: the flag whose history this is (a distribution's payload does not name its flag; the trail's list does).
 */
export function AuditEventItem({ event, ns, links, flagKey }: { event: AuditEvent; ns: string; links: boolean; flagKey?: string }) {
  const r: AuditPayload = { ...(event.before ?? {}), ...event.payload };
  const where = typeof r.namespace_key === 'string' && r.namespace_key ? r.namespace_key : ns;
  const flag = typeof r.flag_key === 'string' && r.flag_key ? r.flag_key : event.flagKey ?? flagKey;
  const names = useAuditNames(where, NAMED_BY_ID.has(event.type) ? flag : undefined);
  return (
    <li className="audit-event">
      <div className="audit-head">
        <p className="audit-what">
          <Subject event={event} ns={ns} links={links} names={names} /> <span className={`badge audit-${event.action}`}>{event.action}</span>
        </p>
        <p className="audit-when">
          <time dateTime={event.timestamp}>{formatDate(event.timestamp)}</time>
          <span className="muted"> · {relativeTime(event.timestamp)}</span>
        </p>
      </div>
      <p className="audit-who">
        <Actor actor={event.metadata?.actor} />
      </p>
      <PayloadDiff event={event} names={names} />
    </li>
  );
}

function Actor({ actor }: { actor?: AuditActor }) {
  if (!actor) return <span className="muted">by an unknown actor</span>;
  // Flagpole's own periodic work (the lifecycle check) names itself, with no method and no address: no request made it.
  if (actor.authentication === 'none' && actor.name && !actor.ip && !actor.email) {
    return (
      <>
        by <strong>{actor.name}</strong> <span className="muted">(Flagpole itself)</span>
      </>
    );
  }
  const method = METHOD_LABELS[actor.authentication] ?? actor.authentication;
  const who = actor.name || actor.email;
  const details = [who ? method : undefined, actor.name && actor.email ? actor.email : undefined, actor.ip].filter(Boolean);
  return (
    <>
      by <strong>{who ?? (actor.authentication === 'none' ? 'anonymous' : method)}</strong>
      {actor.authentication === 'none' && !who && <span className="muted"> ({method})</span>}
      {details.length > 0 && <span className="muted"> · {details.join(' · ')}</span>}
    </>
  );
}

/** "Variant control of flag new-checkout": the resource by its key (or rank, or short id), and what it belongs to. */
function Subject({ event, ns, links, names }: { event: AuditEvent; ns: string; links: boolean; names: AuditNames }) {
  // A delete's payload holds only identifying fields: the rest (a rule's rank, a constraint's property) is in `before`.
  const r: AuditPayload = { ...(event.before ?? {}), ...event.payload };
  const gone = event.action === 'deleted';
  const where = typeof r.namespace_key === 'string' && r.namespace_key ? r.namespace_key : ns;
  const flag = (key: unknown) => owner('flag', key, where, links);
  const segment = (key: unknown) => owner('segment', key, where, links);
  let type = TYPE_LABELS[event.type] ?? event.type;
  let name: ReactNode = null;
  let of: ReactNode = null;
  switch (event.type) {
    case 'flag':
      name = gone ? text(r.key) : flag(r.key);
      break;
    case 'segment':
      name = gone ? text(r.key) : segment(r.key);
      break;
    case 'variant':
      name = text(r.key ?? shortId(r.id));
      of = <> of flag {flag(r.flag_key)}</>;
      break;
    case 'constraint':
      name = text(r.property ?? shortId(r.id));
      of = <> of segment {segment(r.segment_key)}</>;
      break;
    case 'rule':
    case 'rollout':
      // A reorder is about the flag's order of them all (`rule_ids`), not about one.
      if (r.id === undefined && Array.isArray(r.rule_ids ?? r.rollout_ids)) type = `${type} order`;
      else name = text(r.rank !== undefined ? `#${String(r.rank)}` : shortId(r.id));
      of = <> of flag {flag(r.flag_key)}</>;
      break;
    case 'distribution':
      // Named by its variant and its rule's segments, as the rules list shows a split.
      name = text(r.variant_id ? variantName(r.variant_id, names) : shortId(r.id));
      of = r.rule_id ? <> of rule {text(ruleName(r.rule_id, names))}</> : null;
      break;
    case 'token': {
      const metadata = (r.metadata ?? {}) as Record<string, unknown>;
      name = text(metadata['io.flagpole.auth.token.name'] ?? r.name ?? shortId(r.id));
      break;
    }
    default:
      name = text(r.key ?? shortId(r.id));
  }
  return (
    <>
      <span className="audit-type">{type}</span>
      {name && <> {name}</>}
      {of}
    </>
  );
}

function owner(kind: 'flag' | 'segment', key: unknown, ns: string, links: boolean): ReactNode {
  if (typeof key !== 'string' || !key) return text(undefined);
  if (!links) return text(key);
  return (
    <Link to={path('namespaces', ns, kind === 'flag' ? 'flags' : 'segments', key)} className="key">
      {key}
    </Link>
  );
}

function text(value: unknown): ReactNode {
  return <code className="audit-key">{value === undefined || value === null || value === '' ? '?' : String(value)}</code>;
}
