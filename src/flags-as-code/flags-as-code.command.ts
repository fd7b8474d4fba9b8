/**
 * `flagpole export` and `flagpole import` (node dist/main.js export|import …; npm run export|import -- …), with
 * Flipt's options. Against the configured database (migrated first, as Flipt's commands do; running servers pick
 * the change up with their version poll), or against a running Flagpole over HTTP with `--address` and `--token`.
 * Arguments are parsed with node:util's parseArgs. Output goes to standard output or `-o FILE`; messages to
 * standard error.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { StorageModule } from '../storage/storage.module';
import { ENTITIES } from '../entities';
import { buildInfo } from '../meta/build-info';
import type { NamespaceDocument } from './document';
import { mergeDocuments } from './document-merge';
import { readDocuments, type ReadOptions } from './document-reader';
import type { ExportOptions, ImportSummary } from './document.repository';
import { writeDocuments, type DocumentFormat } from './document-writer';
import { DocumentReadingProcess } from './document-reading.service';
import { FlagsAsCodeService } from './flags-as-code.service';
import { UsageError } from '../common/usage-error';

export const COMMANDS = ['export', 'import'] as const;

const USAGE = `usage:
  flagpole export [-o FILE] [--namespaces a,b | --all-namespaces] [--sort-by-key] [--schedules] [--address URL [--token TOKEN]] [--config FILE]
  flagpole import [FILE | --stdin] [--drop] [--skip-existing] [--address URL [--token TOKEN]] [--config FILE]`;

const OPTIONS = {
  output: { type: 'string', short: 'o' },
  namespaces: { type: 'string' },
  namespace: { type: 'string', short: 'n' },
  'all-namespaces': { type: 'boolean' },
  'sort-by-key': { type: 'boolean' },
  schedules: { type: 'boolean' },
  stdin: { type: 'boolean' },
  drop: { type: 'boolean' },
  'skip-existing': { type: 'boolean' },
  address: { type: 'string', short: 'a' },
  token: { type: 'string', short: 't' },
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Where documents come from and go to: the database, or a Flagpole over HTTP. */
interface Store {
  export(namespaces: readonly string[] | 'all', options: ExportOptions): Promise<NamespaceDocument[]>;
  import(documents: NamespaceDocument[], options: { drop: boolean; skipExisting: boolean }): Promise<ImportSummary[]>;
  close(): Promise<void>;
}

export async function runFlagsAsCodeCommand(argv: readonly string[], config: FlagpoleConfig): Promise<void> {
  const [command, ...rest] = argv;
  let args: ReturnType<typeof parse>;
  try {
    args = parse(rest);
  } catch (e) {
    throw new UsageError(`${(e as Error).message}\n${USAGE}`);
  }
  if (args.values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (command === 'import' && !args.values.address && (config.storage.type !== 'database' || config.storage.readOnly)) {
    // The database is then a mirror of files (or read-only by configuration): what is imported into it would be
    // served, and never removed, behind the files' back.
    throw new UsageError(`import writes to a database-backed Flagpole only; with storage.type ${config.storage.type}${config.storage.readOnly ? ' (read_only)' : ''} flag state is read-only: change the files instead`);
  }
  const reading = { maxAliasNodes: config.limits.maxYamlAliasNodes, maxScheduleSteps: config.schedules.maxSteps };
  const store = args.values.address ? remoteStore(args.values.address, args.values.token ?? process.env.FLAGPOLE_TOKEN, reading) : await localStore(config);
  try {
    if (command === 'export') await runExport(store, args);
    else await runImport(store, args, reading);
  } finally {
    await store.close();
  }
}

function parse(rest: readonly string[]) {
  return parseArgs({ args: joinValues(rest), options: OPTIONS, allowPositionals: true, strict: true });
}

/**
 * `--token -x…` as `--token=-x…`: a token may begin with a dash, which parseArgs would take for an option and
 * refuse as ambiguous.
 */
function joinValues(args: readonly string[]): string[] {
  const takesValue = new Set(Object.entries(OPTIONS).flatMap(([name, o]) => (o.type === 'string' ? [`--${name}`, ...('short' in o ? [`-${o.short}`] : [])] : [])));
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (takesValue.has(args[i]) && i + 1 < args.length) out.push(`${args[i].startsWith('--') ? args[i] : `--${longName(args[i])}`}=${args[++i]}`);
    else out.push(args[i]);
  }
  return out;
}

function longName(short: string): string {
  return Object.entries(OPTIONS).find(([, o]) => 'short' in o && `-${o.short}` === short)![0];
}

async function runExport(store: Store, args: ReturnType<typeof parse>): Promise<void> {
  const { values, positionals } = args;
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}\n${USAGE}`);
  const listed = values.namespaces ?? values.namespace;
  if (listed !== undefined && values['all-namespaces']) throw new UsageError(`--namespaces and --all-namespaces exclude each other\n${USAGE}`);
  const namespaces = values['all-namespaces'] ? 'all' : (listed ?? 'default').split(',').map((k) => k.trim()).filter(Boolean);
  let documents = await store.export(namespaces, { schedules: values.schedules });
  if (values['sort-by-key'] && namespaces === 'all') documents = [...documents].sort((a, b) => (a.namespace.key < b.namespace.key ? -1 : a.namespace.key > b.namespace.key ? 1 : 0));
  const format: DocumentFormat = values.output?.toLowerCase().endsWith('.json') ? 'json' : 'yaml';
  const text = writeDocuments(documents, format, {
    sortByKey: values['sort-by-key'],
    header: values.output ? `exported by Flagpole (${buildInfo().version}) on ${new Date().toISOString()}` : undefined,
  });
  if (values.output) writeFileSync(values.output, text);
  else process.stdout.write(text);
}

/** How texts are read: the configured limits (`maxScheduleSteps`: documents may carry scheduled changes). */
type Reading = Pick<ReadOptions, 'maxAliasNodes' | 'maxScheduleSteps'>;

async function runImport(store: Store, args: ReturnType<typeof parse>, reading: Reading): Promise<void> {
  const { values, positionals } = args;
  if (values.stdin ? positionals.length > 0 : positionals.length !== 1) {
    throw new UsageError(`import reads one FILE, or standard input with --stdin\n${USAGE}`);
  }
  const source = values.stdin ? 'stdin' : positionals[0];
  const text = values.stdin ? readFileSync(0, 'utf8') : readFileSync(source, 'utf8');
  // Every document is read and checked before anything is written.
  const documents = readDocuments(text, { source, ...reading });
  const summaries = await store.import(documents, { drop: values.drop === true, skipExisting: values['skip-existing'] === true });
  for (const s of summaries) process.stderr.write(`${describe(s)}\n`);
}

function describe(s: ImportSummary): string {
  const parts = [`${s.flagsCreated} flags and ${s.segmentsCreated} segments created`];
  if (s.flagsSkipped || s.segmentsSkipped) parts.push(`${s.flagsSkipped} flags and ${s.segmentsSkipped} segments skipped (already there)`);
  if (s.flagsDeleted || s.segmentsDeleted) parts.push(`${s.flagsDeleted} flags and ${s.segmentsDeleted} segments deleted first (--drop)`);
  if (s.schedulesCreated) parts.push(`${s.schedulesCreated} scheduled changes created`);
  if (s.schedulesSkipped) parts.push(`${s.schedulesSkipped} scheduled changes skipped with their flags`);
  if (s.schedulesCancelled) parts.push(`${s.schedulesCancelled} open scheduled changes cancelled (--drop)`);
  return `namespace ${s.namespaceKey}${s.namespaceCreated ? ' (created)' : ''}: ${parts.join('; ')}`;
}

@Module({})
class CommandModule {
  static forRoot(config: FlagpoleConfig): DynamicModule {
    // The service alone: no routes (and so none of what they need, the audit trail among them).
    return { module: CommandModule, imports: [StorageModule.forRoot(config.db, ENTITIES)], providers: [FlagsAsCodeService, DocumentReadingProcess, { provide: CONFIG, useValue: config }] };
  }
}

/** The database of the configuration, migrated first. */
async function localStore(config: FlagpoleConfig): Promise<Store> {
  const app = await NestFactory.createApplicationContext(CommandModule.forRoot(config), { logger: ['error', 'warn'] });
  await app.init();
  const service = app.get(FlagsAsCodeService);
  return {
    export: (namespaces, options) => service.exportDocuments(namespaces, options),
    import: (documents, options) => service.importDocuments(documents, options),
    close: () => app.close(),
  };
}

/**
 * A Flagpole over HTTP: its export route per namespace (read back as documents), and its import route per namespace
 * (one request, one transaction, each).
 */
function remoteStore(address: string, token: string | undefined, reading: Reading): Store {
  const base = address.replace(/\/+$/, '');
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const call = async (method: string, path: string, body?: string): Promise<string> => {
    const res = await fetch(base + path, {
      method, body, headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    });
    const text = await res.text();
    if (!res.ok) {
      let message = text;
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? text;
      } catch {
        // not Flipt's error body: the text as it is
      }
      throw new Error(`${method} ${path}: ${res.status} ${message}`);
    }
    return text;
  };
  const allNamespaces = async (): Promise<string[]> => {
    const keys: string[] = [];
    let pageToken = '';
    do {
      const page = JSON.parse(await call('GET', `/api/v1/namespaces?limit=100${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`)) as {
        namespaces: Array<{ key: string }>; nextPageToken?: string;
      };
      keys.push(...page.namespaces.map((n) => n.key));
      pageToken = page.nextPageToken ?? '';
    } while (pageToken);
    return keys;
  };
  const ns = (key: string) => `/api/v1/namespaces/${encodeURIComponent(key)}`;
  return {
    async export(namespaces, options) {
      const keys = namespaces === 'all' ? await allNamespaces() : namespaces;
      const out: NamespaceDocument[] = [];
      const query = options.schedules ? 'format=json&schedules=true' : 'format=json';
      for (const key of keys) out.push(...readDocuments(await call('GET', `${ns(key)}/export?${query}`), { source: `${base} namespace ${key}`, ...reading }));
      return out;
    },
    async import(documents, options) {
      const summaries: ImportSummary[] = [];
      // One request per namespace, as the server writes one namespace in one transaction.
      for (const [key, doc] of mergeDocuments(documents)) {
        const query = new URLSearchParams();
        if (options.skipExisting) query.set('skipExisting', 'true');
        if (options.drop) query.set('drop', 'true');
        summaries.push(JSON.parse(await call('POST', `${ns(key)}/import?${query}`, writeDocuments([doc], 'json'))) as ImportSummary);
      }
      return summaries;
    },
    close: async () => undefined,
  };
}
