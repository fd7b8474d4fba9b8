/** The one error a bad configuration produces: every problem found, each naming its key and `FLAGPOLE_` variable. */

export interface ConfigIssue {
  /** Dotted YAML path (`server.http_port`); absent for problems with the file itself. */
  key?: string;
  /** The `FLAGPOLE_` variable that sets the key. */
  env?: string;
  reason: string;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';

  constructor(readonly issues: readonly ConfigIssue[]) {
    super(['invalid configuration:', ...issues.map((issue) => `  ${formatIssue(issue)}`)].join('\n'));
  }
}

export function formatIssue(issue: ConfigIssue): string {
  if (!issue.key) return issue.reason;
  return `${issue.key}${issue.env ? ` (${issue.env})` : ''}: ${issue.reason}`;
}
