// `npm start`'s prestart: builds only when something the build reads is newer than what it wrote, so that a started
// server is up in about a second after the first build instead of rebuilding TypeScript and the UI every time.
// A few lines of mtime comparison, as `make` would do; no npm package does just this and is kept up.
// Also used by the tests that run the built server (test/ops/support/process.ts).
'use strict';
const { execFileSync } = require('node:child_process');
const { readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
/** What `npm run build` reads. */
const INPUTS = ['src', 'ui', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];
/** What it writes last: the server's entry point and the UI's page. */
const OUTPUTS = [join('dist', 'main.js'), join('dist', 'web', 'index.html')];

function newest(path) {
  const s = statSync(path, { throwIfNoEntry: false });
  if (!s) return 0;
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((f) => newest(join(path, f))));
}

function isBuilt() {
  const built = Math.min(...OUTPUTS.map((p) => statSync(join(ROOT, p), { throwIfNoEntry: false })?.mtimeMs ?? 0));
  return built > Math.max(...INPUTS.map((p) => newest(join(ROOT, p))));
}

if (require.main === module) {
  if (isBuilt()) console.error('flagpole: dist/ is up to date (npm run build rebuilds it)');
  else execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
}

module.exports = { isBuilt };
