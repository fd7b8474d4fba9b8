/**
 * The audit module's configuration checks, run when the configuration loads (src/configuration.ts hands them to the
 * loader): every `audit.events` pattern names known nouns and verbs, and every webhook template renders JSON for a
 * sample event. They live here because they need the audit vocabulary and the template engine, which config/ does
 * not import.
 */
import type { ConfigRule } from '../config/config.rule';
import { patternProblem } from './audit-filter';
import { templateProblem } from './sinks/webhook-template';

export const checkAuditConfig: ConfigRule = (config, ctx) => {
  config.audit.sinks.webhook.templates.forEach((template, i) => {
    const problem = templateProblem(template.body, template.headers);
    if (problem) ctx.issue(['audit', 'sinks', 'webhook', 'templates', String(i), 'body'], problem);
  });
  for (const pattern of config.audit.events) {
    const problem = patternProblem(pattern);
    if (problem) ctx.issue(['audit', 'events'], problem);
  }
};
