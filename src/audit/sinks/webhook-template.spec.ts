import { actorOf, auditEvent } from '../audit-event';
import { renderTemplate, templateProblem } from './webhook-template';

const event = auditEvent('flag', 'created', { key: 'k', name: 'say "hi"', enabled: true, namespace_key: 'default' }, actorOf(undefined, '10.0.0.1'), new Date(Date.UTC(2026, 0, 2)));

describe('webhook templates (Go template syntax)', () => {
  it("renders Flipt's documented forms", () => {
    const body = '{"type": "{{ .Type }}", "action": "{{ .Action }}", "ip": "{{ .Metadata.Actor.ip }}", "at": "{{ .Timestamp }}", "payload": {{ toJson .Payload }}, "p2": {{ .Payload | toJson }}}';
    expect(JSON.parse(renderTemplate(body, event))).toEqual({
      type: 'flag',
      action: 'created',
      ip: '10.0.0.1',
      at: '2026-01-02T00:00:00.000Z',
      payload: event.payload,
      p2: event.payload,
    });
  });

  it('refuses, when the configuration loads, a template that renders no JSON or uses what is not implemented', () => {
    expect(templateProblem('{"t": "{{ .Type }}"}')).toBeNull();
    expect(templateProblem('type={{ .Type }}')).toMatch(/valid JSON/);
    expect(templateProblem('{{ if .Type }}{}{{ end }}')).toMatch(/cannot be rendered/);
    expect(templateProblem('{"t": "{{ .Type }"}')).not.toBeNull();
  });
});

describe('webhook templates: event text inside a JSON body', () => {
  // A name that would close its string and add a field, a backslash that would start an escape, a control character.
  const hostileName = 'x", "text": "pwned';
  const hostileDescription = 'C:\\temp\\ "quoted"\nnext line\t\u0001';
  const hostile = auditEvent('flag', 'updated', { key: 'k', name: hostileName, description: hostileDescription, enabled: true, namespace_key: 'default' }, actorOf(undefined, '10.0.0.1'), new Date(0));
  const CHAT = '{"text": "{{ .Payload.name }} was {{ .Action }}", "detail": "{{ .Payload.description }}", "payload": {{ toJson .Payload }}}';

  it.each([
    ['no Content-Type header (sent as application/json)', {}],
    ['Content-Type: application/json; charset=utf-8', { 'Content-Type': 'application/json; charset=utf-8' }],
    ['a +json media type', { 'content-type': 'application/vnd.chat+json' }],
  ])('escapes every substituted string with %s: valid JSON, names intact, no field overwritten', (_what, headers) => {
    const rendered = JSON.parse(renderTemplate(CHAT, hostile, headers));
    expect(rendered).toEqual({ text: `${hostileName} was updated`, detail: hostileDescription, payload: hostile.payload });
  });

  it('keeps a name from closing its string and overwriting the field after it', () => {
    const named = auditEvent('flag', 'created', { key: 'k', name: hostileName }, actorOf(undefined, '10.0.0.1'), new Date(0));
    const rendered = JSON.parse(renderTemplate('{"text": "{{ .Payload.name }}", "by": "{{ .Metadata.Actor.ip }}"}', named));
    expect(rendered).toEqual({ text: hostileName, by: '10.0.0.1' });
  });

  it('escapes what pipelines, print and variables make of event text, and leaves toJson\'s output as JSON', () => {
    const body = '{"a": "{{ .Payload.name | print }}", "b": "{{ print .Payload.name "!" }}", "c": "{{ $n := .Payload.description }}", "d": {{ .Payload | toJson }}, "e": {{ toJson .Payload.name }}}';
    expect(JSON.parse(renderTemplate(body, hostile))).toEqual({
      a: hostileName, b: `${hostileName}!`, c: hostileDescription, d: hostile.payload, e: hostileName,
    });
  });

  it('renders a missing field as nothing, as before', () => {
    expect(JSON.parse(renderTemplate('{"who": "{{ .Metadata.Actor.email }}"}', hostile))).toEqual({ who: '' });
  });

  it('leaves the text as it is when the template says its body is not JSON', () => {
    expect(renderTemplate('{{ .Payload.name }} / {{ .Payload.description }}', hostile, { 'Content-Type': 'text/plain' }))
      .toBe(`${hostileName} / ${hostileDescription}`);
  });
});
