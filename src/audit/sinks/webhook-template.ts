/**
 * Webhook templates' bodies in Flipt's syntax, Go's text/template over the event (`{{ .Type }}`,
 * `{{ .Metadata.Actor.email }}`, `{{ toJson .Payload }}`, `{{ .Payload | toJson }}`), rendered by go-text-template,
 * the npm implementation of Go's template language that takes custom functions (the other one found,
 * @ctrl/golang-template, has no `toJson`). It implements fields, pipelines and functions but not `if`, `range` or
 * `printf`: a template using them is refused when the configuration loads (checkTemplate), not when an event comes.
 */
import { Template } from 'go-text-template';
import { actorOf, auditEvent, type AuditEvent } from '../audit-event';

/** The event as Go's template sees Flipt's Event struct: exported field names, the actor a map. */
function templateData(event: AuditEvent): Record<string, unknown> {
  return {
    Version: event.version,
    Type: event.type,
    Action: event.action,
    Metadata: { Actor: event.metadata.actor },
    Payload: event.payload,
    Timestamp: event.timestamp,
    Status: event.status,
  };
}

export function renderTemplate(body: string, event: AuditEvent): string {
  const template = new Template('audit');
  // The library types function arguments as scalars; `toJson` takes any value of the event.
  template.funcs.set('toJson', ((value: unknown) => JSON.stringify(value ?? null)) as never);
  return template.execute(body, templateData(event));
}

const SAMPLE = auditEvent(
  'flag',
  'updated',
  { key: 'sample', name: 'Sample', description: '', enabled: true, namespace_key: 'default' },
  actorOf(undefined, '127.0.0.1'),
  new Date(0),
);

/** Why a template body cannot be used (it fails to render, or renders no JSON), or null. */
export function templateProblem(body: string): string | null {
  let out: string;
  try {
    out = renderTemplate(body, SAMPLE);
  } catch (e) {
    return `cannot be rendered: ${(e as Error).message}`;
  }
  if (out.includes('{{')) return 'has an action that cannot be rendered (unclosed "{{"?)';
  try {
    JSON.parse(out);
  } catch {
    return `does not render valid JSON for a sample event: ${out.length > 120 ? `${out.slice(0, 120)}…` : out}`;
  }
  return null;
}
