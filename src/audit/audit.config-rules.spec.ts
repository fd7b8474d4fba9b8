import { ConfigError } from '../config/config.error';
import { loadConfigurationWithWarnings } from '../configuration';

function problems(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfigurationWithWarnings({ argv: [], env });
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    return e.message.split('\n').slice(1).map((line) => line.trim());
  }
  return [];
}

describe('the audit configuration checks, as every start runs them (src/configuration.ts)', () => {
  it('refuses unknown event patterns and templates that do not render JSON, beside the loader\'s own problems', () => {
    expect(
      problems({
        FLAGPOLE_AUDIT_EVENTS: 'flag:created flags:deleted',
        FLAGPOLE_AUDIT_SINKS_WEBHOOK_ENABLED: 'true',
        FLAGPOLE_AUDIT_SINKS_WEBHOOK_TEMPLATES: JSON.stringify([{ url: 'ftp://hook.example', body: 'type={{ .Type }}' }]),
      }),
    ).toEqual([
      'audit.sinks.webhook.templates.0.url (FLAGPOLE_AUDIT_SINKS_WEBHOOK_TEMPLATES_0_URL): must be an http or https URL, got "ftp://hook.example"',
      'audit.sinks.webhook.templates.0.body (FLAGPOLE_AUDIT_SINKS_WEBHOOK_TEMPLATES_0_BODY): does not render valid JSON for a sample event: type=flag',
      'audit.events (FLAGPOLE_AUDIT_EVENTS): "flags:deleted": unknown noun "flags" (one of flag, variant, segment, constraint, rule, distribution, namespace, rollout, token, schedule or *)',
    ]);
  });

  it('accepts usable patterns and templates', () => {
    expect(
      problems({
        FLAGPOLE_AUDIT_EVENTS: 'flag:* *:deleted',
        FLAGPOLE_AUDIT_SINKS_WEBHOOK_ENABLED: 'true',
        FLAGPOLE_AUDIT_SINKS_WEBHOOK_TEMPLATES: JSON.stringify([{ url: 'https://hook.example', body: '{"type": "{{ .Type }}"}' }]),
      }),
    ).toEqual([]);
  });
});
