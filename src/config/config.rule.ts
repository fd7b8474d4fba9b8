/** What a configuration check is handed, and its shape: config.rules.ts's own checks and the features' (src/configuration.ts). */
import type { FlagpoleConfig } from './config.types';

export interface RuleContext {
  /** The merged file + environment values (YAML keys), before decoding: tells "unset" from "set to the default". */
  raw: Record<string, unknown>;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Reports a bad key by YAML path. */
  issue: (path: readonly string[], reason: string) => void;
  warn: (message: string) => void;
}

/** A check of the decoded configuration that reports through `ctx.issue` and `ctx.warn`. */
export type ConfigRule = (config: FlagpoleConfig, ctx: RuleContext) => void;
