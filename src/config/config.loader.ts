/**
 * Loads the configuration: defaults ← YAML file (`--config PATH` or `FLAGPOLE_CONFIG`) ← `FLAGPOLE_…` variables, then
 * validates it in one pass. Problems become one ConfigError naming every bad key with its variable; unknown keys and
 * settings Flagpole does not act on become warnings. See docs/configuration.md for the rules as operators read them.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { load as parseYaml, YAMLException } from 'js-yaml';
import { ConfigError, ConfigIssue } from './config.error';
import { AnySchema, holds, LeafField, yamlKey } from './config.fields';
import { applyRules } from './config.rules';
import type { ConfigRule, RuleContext } from './config.rule';
import { CONFIG_SCHEMA } from './config.schema';
import type { FlagpoleConfig } from './config.types';
import { formatDuration, parseDuration } from './duration';

export const ENV_PREFIX = 'FLAGPOLE_';
/** Variables read by the loader itself rather than naming a key. */
const LOADER_VARIABLES = ['FLAGPOLE_CONFIG', 'FLAGPOLE_DATA_DIR'];
/** Reserved for the test suites (e.g. FLAGPOLE_TEST_POSTGRES_URL); never a configuration key. */
const TEST_PREFIX = 'FLAGPOLE_TEST_';

export interface LoadConfigOptions {
  /** Command-line arguments (default `process.argv.slice(2)`); only `--config PATH` / `--config=PATH` is read. */
  argv?: readonly string[];
  /** Environment (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Directory relative paths are resolved against (default `process.cwd()`). */
  cwd?: string;
  /**
   * Checks the features add, run after config.rules.ts's and reported with them: config/ imports no feature, so a
   * rule that needs a feature's knowledge (an audit template's sample event) is handed in. src/configuration.ts
   * hands in every feature's; the entry points load the configuration through it.
   */
  rules?: readonly ConfigRule[];
}

export interface LoadedConfig {
  config: FlagpoleConfig;
  /** Unknown keys, ignored variables, deprecated keys and settings Flagpole accepts but does not act on. */
  warnings: string[];
  /** The configuration file read, if any. */
  file?: string;
}

/** Loads and validates the configuration; throws ConfigError naming every bad key. */
export function loadConfig(options: LoadConfigOptions = {}): FlagpoleConfig {
  return loadConfigWithWarnings(options).config;
}

export function loadConfigWithWarnings(options: LoadConfigOptions = {}): LoadedConfig {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const ctx = new LoadContext(env);
  const schema = CONFIG_SCHEMA as unknown as AnySchema;

  const source = configFileOf(options.argv ?? process.argv.slice(2), env);
  const file = source ? resolve(cwd, source.path) : undefined;
  const raw: Raw = {};
  if (source && file) normalize(readConfigFile(file, source.from), schema, [], raw, ctx, source.path);
  overlayEnvironment(raw, schema, env, ctx);

  const config = decodeSection(schema, raw, [], ctx) as unknown as FlagpoleConfig;
  for (const deferred of ctx.deferredDefaults) {
    if (deferred.field.defaultWhen && holds(deferred.field.defaultWhen, config)) deferred.target[deferred.property] = structuredClone(deferred.field.default);
  }
  const ruleContext: RuleContext = { raw, env, cwd, issue: ctx.issue, warn: ctx.warn };
  applyRules(config, ruleContext);
  for (const rule of options.rules ?? []) rule(config, ruleContext);

  if (ctx.issues.length > 0) throw new ConfigError(ctx.issues);
  return { config, warnings: ctx.warnings, ...(file ? { file } : {}) };
}

/** `FLAGPOLE_` + the YAML path upper-cased with `.` → `_`: `server.http_port` → `FLAGPOLE_SERVER_HTTP_PORT`. */
export function envName(path: readonly string[]): string {
  return ENV_PREFIX + path.join('_').toUpperCase();
}


// ---- internals ------------------------------------------------------------------------------------------------------

type Raw = Record<string, unknown>;

interface DeferredDefault {
  target: Record<string, unknown>;
  property: string;
  field: LeafField;
}

class LoadContext {
  readonly issues: ConfigIssue[] = [];
  readonly warnings: string[] = [];
  readonly deferredDefaults: DeferredDefault[] = [];

  constructor(readonly env: NodeJS.ProcessEnv) {}

  readonly issue = (path: readonly string[], reason: string, env = envName(path)): void => {
    this.issues.push(path.length ? { key: path.join('.'), env, reason } : { reason });
  };

  readonly warn = (message: string): void => {
    this.warnings.push(message);
  };
}

function configFileOf(argv: readonly string[], env: NodeJS.ProcessEnv): { path: string; from: string } | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') break;
    if (arg === '--config' || arg.startsWith('--config=')) {
      const path = arg === '--config' ? argv[i + 1] : arg.slice('--config='.length);
      if (!path || (arg === '--config' && path.startsWith('-'))) {
        throw new ConfigError([{ reason: '--config needs the path of a YAML file' }]);
      }
      return { path, from: '--config' };
    }
  }
  return env.FLAGPOLE_CONFIG ? { path: env.FLAGPOLE_CONFIG, from: 'FLAGPOLE_CONFIG' } : undefined;
}

function readConfigFile(file: string, from: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'does not exist' : `cannot be read (${(e as Error).message})`;
    throw new ConfigError([{ reason: `config file ${file} (given by ${from}) ${reason}` }]);
  }
  try {
    return parseYaml(text, { filename: file }) ?? {};
  } catch (e) {
    if (!(e instanceof YAMLException)) throw e;
    const where = e.mark ? ` at line ${e.mark.line + 1}, column ${e.mark.column + 1}` : '';
    throw new ConfigError([{ reason: `config file ${file} is not valid YAML${where}: ${e.reason}` }]);
  }
}

const keysBySchema = new WeakMap<AnySchema, Map<string, string>>();

/** YAML key (lower-cased) → property name. */
function keysOf(schema: AnySchema): Map<string, string> {
  let keys = keysBySchema.get(schema);
  if (!keys) {
    keys = new Map(Object.entries(schema).map(([property, field]) => [yamlKey(property, field), property]));
    keysBySchema.set(schema, keys);
  }
  return keys;
}

function isMapping(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Copies the file's values into `out` under their schema keys. Keys match case-insensitively and map keys (provider
 * names, metadata keys, headers) are lower-cased, as Flipt's loader (viper) does; unknown keys become warnings.
 */
function normalize(value: unknown, schema: AnySchema, path: string[], out: Raw, ctx: LoadContext, fileName: string): void {
  if (value === null || value === undefined) return;
  if (!isMapping(value)) {
    if (path.length === 0) ctx.issue([], `config file ${fileName} must hold a mapping of settings, got ${describeValue(value)}`);
    else ctx.issue(path, `must be a mapping of settings, got ${describeValue(value)}`);
    return;
  }
  for (const [key, child] of Object.entries(value)) {
    const yaml = key.toLowerCase();
    const property = keysOf(schema).get(yaml);
    const childPath = [...path, yaml];
    if (property === undefined) {
      ctx.warn(`unknown key "${[...path, key].join('.')}" in ${fileName} (ignored)`);
      continue;
    }
    const field = schema[property];
    if (field.kind === 'section') {
      const nested: Raw = isMapping(out[yaml]) ? (out[yaml] as Raw) : {};
      normalize(child, field.fields, childPath, nested, ctx, fileName);
      out[yaml] = nested;
    } else if (field.kind === 'map') {
      if (child === null || child === undefined) continue;
      if (!isMapping(child)) {
        ctx.issue(childPath, `must be a mapping of ${field.keyName} → settings, got ${describeValue(child)}`);
        continue;
      }
      const entries: Raw = {};
      for (const [entryKey, entry] of Object.entries(child)) {
        const entryOut: Raw = {};
        normalize(entry, field.of, [...childPath, entryKey.toLowerCase()], entryOut, ctx, fileName);
        entries[entryKey.toLowerCase()] = entryOut;
      }
      out[yaml] = entries;
    } else if ((field.kind === 'stringMap' || field.kind === 'listMap') && isMapping(child)) {
      out[yaml] = Object.fromEntries(Object.entries(child).map(([k, v]) => [k.toLowerCase(), v]));
    } else {
      out[yaml] = child;
    }
  }
}

/**
 * Applies `FLAGPOLE_…` variables. The name is matched against the schema, not split naively: `SERVER_HTTP_PORT` is
 * `server.http_port` because `server` has a key `http_port`. Map keys are whatever sits between a map and the next
 * known key (`…_PROVIDERS_MY_IDP_CLIENT_ID` → provider `my_idp`), lower-cased. Empty variables count as unset.
 */
function overlayEnvironment(raw: Raw, schema: AnySchema, env: NodeJS.ProcessEnv, ctx: LoadContext): void {
  for (const name of Object.keys(env).sort()) {
    const value = env[name];
    if (!name.startsWith(ENV_PREFIX) || name.startsWith(TEST_PREFIX) || LOADER_VARIABLES.includes(name)) continue;
    if (value === undefined || value === '') continue;
    const path = resolveEnvPath(name.slice(ENV_PREFIX.length).split('_'), schema);
    if (!path) {
      ctx.warn(`${name} does not name a configuration key (ignored)`);
      continue;
    }
    let node = raw;
    for (const key of path.slice(0, -1)) {
      if (!isMapping(node[key])) node[key] = {};
      node = node[key] as Raw;
    }
    node[path[path.length - 1]] = value;
  }
}

/** YAML path for the upper-case tokens of a variable name, or undefined when it names no key. */
export function resolveEnvPath(tokens: readonly string[], schema: AnySchema): string[] | undefined {
  for (const [property, field] of Object.entries(schema)) {
    const key = yamlKey(property, field);
    const keyTokens = key.toUpperCase().split('_');
    if (!keyTokens.every((token, i) => tokens[i] === token)) continue;
    const rest = tokens.slice(keyTokens.length);

    let tail: string[] | undefined;
    if (field.kind === 'section') {
      tail = rest.length ? resolveEnvPath(rest, field.fields) : undefined;
    } else if (field.kind === 'map') {
      // Shortest map key whose remainder names a key of the entry: `MY_IDP_CLIENT_ID` → my_idp + client_id.
      for (let i = 1; i < rest.length && !tail; i++) {
        const inner = resolveEnvPath(rest.slice(i), field.of);
        if (inner) tail = [rest.slice(0, i).join('_').toLowerCase(), ...inner];
      }
    } else if (field.kind === 'stringMap' || field.kind === 'listMap') {
      tail = rest.length && rest.every(Boolean) ? [rest.join('_').toLowerCase()] : undefined;
    } else {
      tail = rest.length === 0 ? [] : undefined;
    }
    if (tail) return [key, ...tail];
  }
  return undefined;
}

function decodeSection(schema: AnySchema, raw: unknown, path: string[], ctx: LoadContext, envOverride?: string): Raw {
  const values = isMapping(raw) ? raw : {};
  const out: Raw = {};
  for (const [property, field] of Object.entries(schema)) {
    const key = yamlKey(property, field);
    const fieldPath = [...path, key];
    const value = values[key];
    if (field.kind === 'section') {
      out[property] = decodeSection(field.fields, value, fieldPath, ctx, envOverride);
    } else if (field.kind === 'map') {
      out[property] = Object.fromEntries(
        Object.entries(isMapping(value) ? value : {}).map(([entryKey, entry]) => [
          entryKey,
          decodeSection(field.of, entry, [...fieldPath, entryKey], ctx, envOverride),
        ]),
      );
    } else if (value === undefined || value === null) {
      out[property] = field.defaultWhen ? zeroOf(field) : structuredClone(field.default);
      if (field.defaultWhen) ctx.deferredDefaults.push({ target: out, property, field });
    } else {
      const decoded = decodeLeaf(field, value, fieldPath, ctx);
      if ('reason' in decoded) {
        ctx.issue(fieldPath, decoded.reason, envOverride ?? envName(fieldPath));
        out[property] = structuredClone(field.default);
      } else {
        out[property] = decoded.value;
      }
    }
  }
  return out;
}

type Decoded = { value: unknown } | { reason: string };

function decodeLeaf(field: LeafField, input: unknown, path: string[], ctx: LoadContext): Decoded {
  const hide = field.json === false;
  const value = substitute(input, ctx.env);
  switch (field.kind) {
    case 'string': {
      const text = scalarText(value, field.fromNumber);
      if (text === undefined) return { reason: `must be a string, got ${describeValue(value, hide)}` };
      const problem = text === '' ? undefined : field.check?.(text);
      return problem ? { reason: `${problem}, got ${describeValue(text, hide)}` } : { value: text };
    }
    case 'enum': {
      const text = scalarText(value)?.trim();
      const match = text === undefined ? undefined : field.values.find((v) => v.toLowerCase() === text.toLowerCase());
      if (match !== undefined) return { value: match };
      return { reason: `must be one of ${listValues(field.values)}, got ${describeValue(value)}` };
    }
    case 'bool': {
      const parsed = parseBool(value);
      return parsed === undefined ? { reason: `must be true or false, got ${describeValue(value)}` } : { value: parsed };
    }
    case 'int':
    case 'float': {
      const text = scalarText(value)?.trim() ?? '';
      const pattern = field.kind === 'int' ? /^[+-]?\d+$/ : /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
      const number = typeof value === 'number' ? value : pattern.test(text) ? Number(text) : NaN;
      const ok =
        Number.isFinite(number) &&
        (field.kind === 'float' || Number.isSafeInteger(number)) &&
        (field.min === undefined || number >= field.min) &&
        (field.max === undefined || number <= field.max);
      return ok ? { value: number } : { reason: `must be ${numberRule(field.kind, field.min, field.max)}, got ${describeValue(value)}` };
    }
    case 'duration':
      return decodeDuration(field.min, field.max, value);
    case 'list':
      return decodeList(field.values, field.checkItem, value, hide);
    case 'stringMap': {
      if (!isMapping(value)) return { reason: `must be a mapping of ${field.keyName} → text, got ${describeValue(value, hide)}` };
      const entries: Array<[string, string]> = [];
      for (const [key, entry] of Object.entries(value)) {
        const text = scalarText(substitute(entry, ctx.env));
        if (text === undefined) return { reason: `entry "${key}" must be text, got ${describeValue(entry, hide)}` };
        entries.push([key, text]);
      }
      return { value: Object.fromEntries(entries) };
    }
    case 'listMap': {
      if (!isMapping(value)) return { reason: `must be a mapping of ${field.keyName} → list, got ${describeValue(value)}` };
      const entries: Array<[string, string[]]> = [];
      for (const [key, entry] of Object.entries(value)) {
        const decoded = decodeList(undefined, undefined, substitute(entry, ctx.env), false);
        if ('reason' in decoded) return { reason: `entry "${key}" ${decoded.reason}` };
        entries.push([key, decoded.value as string[]]);
      }
      return { value: Object.fromEntries(entries) };
    }
    case 'objectList': {
      let items = value;
      if (typeof items === 'string') {
        try {
          items = JSON.parse(items);
        } catch {
          return { reason: 'must be a list of mappings (from the environment: a JSON array)' };
        }
      }
      if (!Array.isArray(items) || !items.every(isMapping)) {
        return { reason: `must be a list of mappings, got ${describeValue(items, hide)}` };
      }
      const env = envName(path);
      return { value: items.map((item, i) => decodeSection(field.of, item, [...path, String(i)], ctx, env)) };
    }
  }
}

function decodeDuration(min: number | undefined, max: number | undefined, value: unknown): Decoded {
  const text = scalarText(value)?.trim();
  const example = 'such as 30s, 5m or 1h30m';
  if (text !== undefined && /^[+-]?(\d+\.?\d*|\.\d+)$/.test(text) && Number(text) !== 0) {
    return {
      reason: `must be a duration with a unit, ${example}, got ${describeValue(value)} (a bare number is ambiguous: Flipt reads it as nanoseconds)`,
    };
  }
  const ms = text === undefined ? undefined : parseDuration(text);
  if (ms === undefined) return { reason: `must be a duration ${example}, got ${describeValue(value)}` };
  if (ms < 0) return { reason: `must not be negative, got ${describeValue(value)}` };
  if ((min !== undefined && min > 0 && ms < min) || (max !== undefined && ms > max)) {
    const range =
      max === undefined ? `at least ${formatDuration(min!)}` : `between ${formatDuration(min ?? 0)} and ${formatDuration(max)}`;
    return { reason: `must be ${range}, got ${describeValue(value)}` };
  }
  return { value: ms };
}

/** A list from a YAML sequence, or from one string split on whitespace (`"a b"` → [a, b]), as Flipt does. */
function decodeList(
  values: readonly string[] | undefined,
  checkItem: ((item: string) => string | undefined) | undefined,
  value: unknown,
  hide: boolean,
): Decoded {
  let items: unknown[];
  if (Array.isArray(value)) items = value;
  else if (typeof value === 'string') items = value.split(/\s+/).filter(Boolean);
  else return { reason: `must be a list (or one whitespace-separated string), got ${describeValue(value, hide)}` };

  const out: string[] = [];
  const problems: string[] = [];
  for (const item of items) {
    const text = scalarText(item);
    if (text === undefined) {
      problems.push(`item ${describeValue(item, hide)} must be text`);
      continue;
    }
    const canonical = values ? values.find((v) => v.toLowerCase() === text.toLowerCase()) : text;
    if (canonical === undefined) {
      problems.push(`item ${describeValue(text)} must be one of ${listValues(values!)}`);
      continue;
    }
    const problem = checkItem?.(canonical);
    if (problem) problems.push(`item ${problem}`);
    else out.push(canonical);
  }
  return problems.length ? { reason: problems.join('; ') } : { value: out };
}

/** A string that is exactly `${NAME}` is replaced by variable NAME (empty when unset), in lists and maps too. */
function substitute(value: unknown, env: NodeJS.ProcessEnv): unknown {
  if (typeof value === 'string') {
    const match = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(value);
    return match ? (env[match[1]] ?? '') : value;
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, env));
  return value;
}

function scalarText(value: unknown, fromNumber?: (n: number) => string): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return fromNumber ? fromNumber(value) : String(value);
  if (typeof value === 'boolean') return String(value);
  return undefined;
}

function parseBool(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  const text = scalarText(value)?.trim().toLowerCase();
  if (text === 'true' || text === 't' || text === '1') return true;
  if (text === 'false' || text === 'f' || text === '0') return false;
  return undefined;
}

function numberRule(kind: 'int' | 'float', min?: number, max?: number): string {
  const noun = kind === 'int' ? 'an integer' : 'a number';
  if (min !== undefined && max !== undefined) return `${noun} between ${min} and ${max}`;
  if (min === 0 && kind === 'int') return 'a non-negative integer';
  if (min !== undefined) return `${noun} of at least ${min}`;
  if (max !== undefined) return `${noun} of at most ${max}`;
  return noun;
}

function listValues(values: readonly string[]): string {
  return values.filter((v) => v !== '').join(', ');
}

function zeroOf(field: LeafField): unknown {
  switch (field.kind) {
    case 'string':
      return '';
    case 'int':
    case 'float':
    case 'duration':
      return 0;
    case 'bool':
      return false;
    case 'list':
    case 'objectList':
      return [];
    case 'stringMap':
    case 'listMap':
      return {};
    case 'enum':
      return field.default;
  }
}

/** The offending value for a message; secrets and paths are described, never echoed. */
export function describeValue(value: unknown, hide = false): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (hide) return typeof value === 'string' ? 'a hidden value' : `a ${typeof value}`;
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

