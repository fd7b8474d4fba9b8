/**
 * The Kubernetes examples in deploy/kubernetes/ are checked against the application itself: every probe asks a
 * route or gRPC service that a running Flagpole answers with success, on a port that Flagpole configured with the
 * container's own environment listens on; every environment variable is a configuration key Flagpole knows; every
 * Secret reference resolves; the grace period covers preStop plus Flagpole's own shutdown grace.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { loadConfigurationWithWarnings } from '../../src/configuration';
import type { FlagpoleConfig } from '../../src/config/config.types';
import { SHUTDOWN_GRACE_MS } from '../../src/health/graceful-shutdown';
import { dialectOf } from '../../src/storage/dialects';
import { client, startFlagpole, type RunningFlagpole } from '../support/flagpole';
import { envOf, parseDockerfile } from './support/dockerfile';
import { check, healthClient } from './support/grpc-health-client';
import { ROOT } from './support/process';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Doc = Record<string, any>;

const DIR = join(ROOT, 'deploy', 'kubernetes');

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const path = join(dir, f);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(f) ? [path] : [];
  });
}

const files = yamlFiles(DIR);
const docsOf = (file: string) => loadAll(readFileSync(file, 'utf8')) as Doc[];
const deployments = files.filter((f) => docsOf(f).some((d) => d.kind === 'Deployment'));
const imageEnv = envOf(parseDockerfile(join(ROOT, 'Dockerfile')).at(-1)!);

/** The container's configuration: the image's ENV, then the manifest's env, Secret values taken from the Secret. */
function containerConfig(container: Doc, secrets: Map<string, Record<string, string>>): { config: FlagpoleConfig; warnings: string[] } {
  const env: Record<string, string> = { ...imageEnv };
  for (const e of container.env ?? []) {
    if ('value' in e) env[e.name] = String(e.value);
    else {
      const ref = e.valueFrom.secretKeyRef;
      env[e.name] = secrets.get(ref.name)?.[ref.key] ?? 'from-a-secret-created-outside';
    }
  }
  return loadConfigurationWithWarnings({ argv: [], env });
}

function portNumber(container: Doc, port: number | string): number {
  if (typeof port === 'number') return port;
  const named = (container.ports ?? []).find((p: Doc) => p.name === port);
  if (!named) throw new Error(`no container port named ${port}`);
  return named.containerPort;
}

describe('Kubernetes manifests', () => {
  let fp: RunningFlagpole;
  let grpc: ReturnType<typeof healthClient>;
  beforeAll(async () => {
    fp = await startFlagpole({ FLAGPOLE_AUTHENTICATION_REQUIRED: 'true', FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true' });
    grpc = healthClient(fp.grpcPort);
  });
  afterAll(async () => {
    grpc?.close();
    await fp?.close();
  });

  it('has the single-replica SQLite example and the PostgreSQL + Redis example', () => {
    expect(deployments.map((f) => f.slice(DIR.length + 1)).sort()).toEqual(['flagpole.yaml', 'postgres-redis/flagpole.yaml']);
  });

  describe.each(deployments.map((f) => [f.slice(DIR.length + 1), f]))('%s', (_name, file) => {
    const docs = docsOf(file);
    const deployment = docs.find((d) => d.kind === 'Deployment')!;
    const pod = deployment.spec.template.spec;
    const container = pod.containers[0];
    const secrets = new Map<string, Record<string, string>>(
      [...docs, ...docsOf(join(DIR, 'secret.example.yaml'))].filter((d) => d.kind === 'Secret').map((d) => [d.metadata.name, d.stringData]),
    );
    const { config, warnings } = containerConfig(container, secrets);

    it('configures Flagpole only with variables it knows', () => {
      expect(warnings.filter((w) => !/not act on|accepted but/i.test(w))).toEqual([]);
    });

    it('refers only to Secret keys that exist', () => {
      for (const e of container.env.filter((e: Doc) => e.valueFrom)) {
        const { name, key } = e.valueFrom.secretKeyRef;
        expect(secrets.get(name)).toHaveProperty(key);
      }
    });

    it('exposes the ports Flagpole listens on, and the Service targets them', () => {
      const ports = Object.fromEntries(container.ports.map((p: Doc) => [p.name, p.containerPort]));
      expect(ports).toEqual({ http: config.server.httpPort, grpc: config.server.grpcPort });
      const service = docs.find((d) => d.kind === 'Service')!;
      expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
      for (const p of service.spec.ports) expect(Object.keys(ports)).toContain(p.targetPort);
      const annotations = deployment.spec.template.metadata.annotations;
      expect(Number(annotations['prometheus.io/port'])).toBe(config.server.httpPort);
    });

    it.each(['livenessProbe', 'readinessProbe', 'startupProbe'])('%s asks what Flagpole answers, on its port', async (probe) => {
      const spec = container[probe];
      expect(spec).toBeDefined();
      if (spec.httpGet) {
        expect(portNumber(container, spec.httpGet.port)).toBe(config.server.httpPort);
        // Authentication is on in the examples: the probe carries no credential and must still pass.
        const r = await client(fp.url).get(spec.httpGet.path);
        expect({ path: spec.httpGet.path, status: r.status }).toEqual({ path: spec.httpGet.path, status: 200 });
      } else {
        expect(spec.grpc.port).toBe(config.server.grpcPort);
        expect(await check(grpc, spec.grpc.service ?? '')).toBe('SERVING');
      }
    });

    it('gives shutdown enough time: preStop + Flagpole grace ≤ terminationGracePeriodSeconds', () => {
      const preStop = Number(container.lifecycle.preStop.exec.command.at(-1));
      expect(preStop + SHUTDOWN_GRACE_MS / 1000).toBeLessThanOrEqual(pod.terminationGracePeriodSeconds);
    });

    it('runs as the image user, not root', () => {
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      expect(container.securityContext).toMatchObject({ allowPrivilegeEscalation: false });
    });

    it('stores data where the database is', () => {
      const dialect = dialectOf(config.db.url).name;
      const mounts = (container.volumeMounts ?? []).map((m: Doc) => m.mountPath);
      if (dialect === 'sqlite') {
        expect(config.db.url).toBe(`file:${imageEnv.FLAGPOLE_DATA_DIR}/flagpole.db`);
        expect(mounts).toContain(imageEnv.FLAGPOLE_DATA_DIR);
        const claim = pod.volumes.find((v: Doc) => v.persistentVolumeClaim)?.persistentVolumeClaim.claimName;
        expect(docs.some((d) => d.kind === 'PersistentVolumeClaim' && d.metadata.name === claim)).toBe(true);
        expect(deployment.spec).toMatchObject({ replicas: 1, strategy: { type: 'Recreate' } });
      } else {
        expect(dialect).toBe('postgres');
        expect(deployment.spec.replicas).toBeGreaterThan(1);
        expect(config.cache).toMatchObject({ enabled: true, backend: 'redis' });
      }
    });
  });
});
