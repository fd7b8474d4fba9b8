/**
 * What this build is: the version from package.json, and the commit and build date that `npm run build` wrote to
 * dist/build-info.json (scripts/write-build-info.js). Run from source (tests, ts-node) there is no such file and the
 * commit and date are unknown ('').
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export interface BuildInfo {
  version: string;
  commit: string;
  buildDate: string;
}

// Same depth from src/meta and dist/meta: the repository (or image) root holds package.json.
const ROOT = resolve(__dirname, '..', '..');

let cached: BuildInfo | undefined;

export function buildInfo(): BuildInfo {
  if (cached) return cached;
  const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { version?: string };
  const file = resolve(__dirname, '..', 'build-info.json');
  const built = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<BuildInfo>) : {};
  cached = { version: pkg.version ?? 'dev', commit: built.commit ?? '', buildDate: built.buildDate ?? '' };
  return cached;
}

/** Flipt's rule: a release is a plain semantic version (no `-rc.1`, `-dev`, `-snapshot` suffix). */
export function isRelease(version: string): boolean {
  return /^v?\d+\.\d+\.\d+$/.test(version);
}

/** Go's GOOS / GOARCH spellings, which Flipt reports. */
export function goOs(platform: string = process.platform): string {
  return platform === 'win32' ? 'windows' : platform;
}

export function goArch(arch: string = process.arch): string {
  return ({ x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm', ppc64: 'ppc64le', s390x: 's390x' } as Record<string, string>)[arch] ?? arch;
}
