/**
 * Webhook templates' bodies in Flipt's syntax, Go's text/template over the event (`{{ .Type }}`,
 * `{{ .Metadata.Actor.email }}`, `{{ toJson .Payload }}`, `{{ .Payload | toJson }}`), rendered by go-text-template,
 * the npm implementation of Go's template language that takes custom functions (the other one found,
 * @ctrl/golang-template, has no `toJson`). It implements fields, pipelines and functions but not `if`, `range` or
 * `printf`: a template using them is refused when the configuration loads (templateProblem), not when an event comes.
 *
 * A body that is JSON (the template sets no Content-Type, or a JSON one) gets each action's output escaped as the inside
 * of a JSON string: Go's text/template copies text as it is, so a flag named `x", "text": "pwned` would overwrite a
 * field of a chat payload and a backslash would break the body (and a receiver's 4xx drops the event). `toJson`'s
 * output is JSON already and goes in as it is.
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

/**
 * Whether the template's body is JSON. Without a Content-Type header the sink sends `application/json`, as Flipt does
 * for every template (it adds the header when the configured one is something else); `+json` types are JSON too.
 */
export function isJsonBody(headers: Record<string, string>): boolean {
  const contentType = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  if (contentType === undefined) return true;
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

/** Text as it is written between the quotes of a JSON string. */
const insideJsonString = (text: string): string => JSON.stringify(text).slice(1, -1);

export function renderTemplate(body: string, event: AuditEvent, headers: Record<string, string> = {}): string {
  const template = new Template('audit');
  /** What `toJson` returned during the action being rendered. */
  let toJsonOutputs: string[] = [];
  // The library types function arguments as scalars; `toJson` takes any value of the event.
  template.funcs.set('toJson', ((value: unknown) => {
    const json = JSON.stringify(value ?? null);
    toJsonOutputs.push(json);
    return json;
  }) as never);
  if (!isJsonBody(headers)) return template.execute(body, templateData(event));
  // The library has no escaper hook (Go's html/template appends its escapers to each action's pipeline), but it
  // renders with one `replace` over the body's actions: the body it gets is an object whose `replace` sees each
  // action's output. An output that is exactly what `toJson` made in that action is JSON and stays as it is; anything
  // else (a field, a variable, `print` of anything) is escaped.
  let actions = 0;
  const source = {
    replace: (pattern: RegExp, renderAction: (...match: string[]) => string): string =>
      body.replace(pattern, (...match: string[]) => {
        actions++;
        toJsonOutputs = [];
        const output = renderAction(...match);
        return toJsonOutputs.includes(output) ? output : insideJsonString(output);
      }),
  };
  const out = template.execute(source as unknown as string, templateData(event));
  // Fails closed should a version of the library render another way: nothing unescaped is ever sent.
  if (actions === 0 && body.includes('{{')) throw new Error('go-text-template did not render through replace; event text cannot be escaped');
  return out;
}

const SAMPLE = auditEvent(
  'flag',
  'updated',
  { key: 'sample', name: 'Sample', description: '', enabled: true, namespace_key: 'default' },
  actorOf(undefined, '127.0.0.1'),
  new Date(0),
);

/** Why a template body cannot be used (it fails to render, or renders no JSON), or null. */
export function templateProblem(body: string, headers: Record<string, string> = {}): string | null {
  let out: string;
  try {
    out = renderTemplate(body, SAMPLE, headers);
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
