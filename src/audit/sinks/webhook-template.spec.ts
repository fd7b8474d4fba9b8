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
