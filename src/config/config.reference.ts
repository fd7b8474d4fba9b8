/**
 * The key tables of docs/configuration.md, rendered from the schema. config.reference.spec.ts fails when the page
 * and the schema disagree; `UPDATE_CONFIG_DOCS=1 npx jest --selectProjects unit src/config/config.reference` rewrites
 * the tables in place (the prose around them is hand-written).
 */
import { AnyField, AnySchema, LeafField, yamlKey } from './config.fields';
import { envName } from './config.loader';
import { CONFIG_SCHEMA } from './config.schema';
import { formatDuration } from './duration';

export const REFERENCE_START = '<!-- reference:start (generated from src/config/config.schema.ts) -->';
export const REFERENCE_END = '<!-- reference:end -->';

/** Order of the tables; keys not listed here would still be rendered, after these. */
const TABLE_ORDER = [
  'version',
  'server',
  'db',
  'storage',
  'log',
  'cache',
  'cors',
  'authentication',
  'authentication.methods.token',
  'authentication.methods.oidc',
  'authentication.methods.github',
  'authentication.methods.kubernetes',
  'authentication.methods.jwt',
  'authorization',
  'ui',
  'meta',
  'metrics',
  'diagnostics',
  'tracing',
  'audit',
  'analytics',
  'experimental',
];

interface Row {
  key: string;
  env: string;
  type: string;
  def: string;
  doc: string;
}

export function renderConfigReference(): string {
  const tables = new Map<string, Row[]>(TABLE_ORDER.map((name) => [name, []]));
  collectRows(CONFIG_SCHEMA as unknown as AnySchema, [], [], tables);
  const out: string[] = [];
  for (const [name, rows] of tables) {
    out.push(`### \`${name}\``, '');
    if (rows.length === 0) {
      out.push('No keys: Flipt v1.61 has no experimental features. The section is accepted and shown as `{}`.', '');
      continue;
    }
    out.push('| Key | Environment variable | Type | Default | Meaning |', '|---|---|---|---|---|');
    for (const row of rows) out.push(`| \`${row.key}\` | \`${row.env}\` | ${row.type} | ${row.def} | ${row.doc} |`);
    out.push('');
  }
  return out.join('\n').trimEnd() + '\n';
}

function tableOf(path: string[]): string {
  return path[0] === 'authentication' && path[1] === 'methods' ? path.slice(0, 3).join('.') : path[0];
}

/** `keyPath` shows placeholders in lower case (`<provider>`), `envPath` in upper case (`<PROVIDER>`). */
function collectRows(
  schema: AnySchema,
  keyPath: string[],
  envPath: string[],
  tables: Map<string, Row[]>,
  hidden = false,
): void {
  for (const [property, field] of Object.entries(schema)) {
    const key = yamlKey(property, field);
    const fieldKeyPath = [...keyPath, key];
    const fieldEnvPath = [...envPath, key];
    if (field.kind === 'section') {
      const table = tableOf(fieldKeyPath);
      if (!tables.has(table)) tables.set(table, []);
      collectRows(field.fields, fieldKeyPath, fieldEnvPath, tables, hidden || field.json === false);
    } else if (field.kind === 'map') {
      const placeholder = field.keyName;
      collectRows(field.of, [...fieldKeyPath, placeholder.toLowerCase()], [...fieldEnvPath, placeholder], tables, hidden);
    } else {
      const env = field.kind === 'stringMap' || field.kind === 'listMap' ? envName([...fieldEnvPath, field.keyName]) : envName(fieldEnvPath);
      const table = tableOf(fieldKeyPath);
      if (!tables.has(table)) tables.set(table, []);
      tables.get(table)!.push({
        key: fieldKeyPath.join('.'),
        env: env.replace(/<(\w+)>/g, (_, name: string) => `<${name.toUpperCase()}>`),
        type: typeOf(field),
        def: defaultOf(field),
        doc: docOf(field, hidden || field.json === false),
      });
    }
  }
}

function code(text: string): string {
  return text === '' ? '`""`' : `\`${text}\``;
}

function typeOf(field: LeafField): string {
  switch (field.kind) {
    case 'string':
      return 'string';
    case 'enum':
      return field.values.map(code).join(' \\| ');
    case 'int':
      return field.min !== undefined && field.max !== undefined ? `integer ${field.min}–${field.max}` : 'integer';
    case 'float':
      return field.min !== undefined && field.max !== undefined ? `number ${field.min}–${field.max}` : 'number';
    case 'duration':
      return 'duration';
    case 'bool':
      return 'boolean';
    case 'list':
      return field.values ? `list of ${field.values.map(code).join(' \\| ')}` : 'list';
    case 'stringMap':
      return `map ${field.keyName} → string`;
    case 'listMap':
      return `map ${field.keyName} → list`;
    case 'objectList':
      return `list of {${Object.entries(field.of as AnySchema)
        .map(([property, item]) => yamlKey(property, item as AnyField))
        .join(', ')}}`;
  }
}

function defaultOf(field: LeafField): string {
  if (field.defaultDoc) return field.defaultDoc;
  const when = field.defaultWhen ? ' when enabled, else zero' : '';
  const value = field.default as unknown;
  let text: string;
  if (field.kind === 'duration') text = code(formatDuration(value as number));
  else if (Array.isArray(value)) text = value.length ? value.map((v) => code(String(v))).join(', ') : '`[]`';
  else if (typeof value === 'object' && value !== null) text = '`{}`';
  else text = code(String(value));
  return text + when;
}

function docOf(field: LeafField, hidden: boolean): string {
  const notes = [field.doc];
  if (field.inert) notes.push('**Not acted on by Flagpole yet.**');
  if (hidden) notes.push('Never shown in `/meta/config`.');
  return notes.join(' ').replace(/\|/g, '\\|');
}

