import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnySchema, yamlKey } from './config.fields';
import { envName, resolveEnvPath } from './config.loader';
import { REFERENCE_END, REFERENCE_START, renderConfigReference } from './config.reference';
import { CONFIG_SCHEMA } from './config.schema';

const DOC = join(__dirname, '..', '..', 'docs', 'configuration.md');

/** Every key's YAML path (map entries as <PLACEHOLDER>) and the variable that sets it, depth first. */
function keyPaths(schema: AnySchema, path: string[] = []): Array<{ path: string[]; env: string }> {
  return Object.entries(schema).flatMap(([property, field]) => {
    const fieldPath = [...path, yamlKey(property, field)];
    if (field.kind === 'section') return keyPaths(field.fields, fieldPath);
    if (field.kind === 'map') return keyPaths(field.of, [...fieldPath, field.keyName]);
    const mapKey = field.kind === 'stringMap' || field.kind === 'listMap' ? [field.keyName] : [];
    return [{ path: fieldPath, env: envName([...fieldPath, ...mapKey]) }];
  });
}

describe('docs/configuration.md', () => {
  const page = readFileSync(DOC, 'utf8');

  it('holds the key tables rendered from the schema (UPDATE_CONFIG_DOCS=1 rewrites them)', () => {
    const start = page.indexOf(REFERENCE_START);
    const end = page.indexOf(REFERENCE_END);
    expect(start).toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(start);
    const rendered = `${REFERENCE_START}\n\n${renderConfigReference()}\n${REFERENCE_END}`;
    if (process.env.UPDATE_CONFIG_DOCS === '1') {
      writeFileSync(DOC, page.slice(0, start) + rendered + page.slice(end + REFERENCE_END.length));
      return;
    }
    expect(page.slice(start, end + REFERENCE_END.length)).toBe(rendered);
  });

  it('names every key with its variable', () => {
    const missing = keyPaths(CONFIG_SCHEMA as unknown as AnySchema)
      .map(({ path, env }) => ({ key: path.join('.').replace(/<(\w+)>/g, (_, n: string) => `<${n.toLowerCase()}>`), env }))
      .filter(({ key, env }) => !page.includes(`\`${key}\``) || !page.includes(`\`${env}\``));
    expect(missing).toEqual([]);
  });
});

describe('the schema', () => {
  it('gives every key its own variable name', () => {
    const names = keyPaths(CONFIG_SCHEMA as unknown as AnySchema).map(({ env }) => env);
    expect(names.length).toBeGreaterThan(150);
    expect(new Set(names).size).toBe(names.length);
  });

  it('maps every variable back to its key, underscores inside key names included', () => {
    const schema = CONFIG_SCHEMA as unknown as AnySchema;
    const wrong = keyPaths(schema)
      .map(({ env }) => env.replace(/<\w+>/g, 'MY_ENTRY'))
      .filter((env) => {
        const path = resolveEnvPath(env.slice('FLAGPOLE_'.length).split('_'), schema);
        return !path || envName(path) !== env;
      });
    expect(wrong).toEqual([]);
  });

  it('documents every key', () => {
    const undocumented: string[] = [];
    const walk = (schema: AnySchema, path: string[]) => {
      for (const [property, field] of Object.entries(schema)) {
        const fieldPath = [...path, yamlKey(property, field)];
        if (field.kind === 'section') walk(field.fields, fieldPath);
        else if (field.kind === 'map') walk(field.of, fieldPath);
        else if (field.doc.trim() === '') undocumented.push(fieldPath.join('.'));
      }
    };
    walk(CONFIG_SCHEMA as unknown as AnySchema, []);
    expect(undocumented).toEqual([]);
  });
});
