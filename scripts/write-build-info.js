// Run by `npm run build`: records the commit and build time in dist/build-info.json for `/meta/info`. The commit
// comes from BUILD_COMMIT (the Docker build passes it: there is no .git in the build context), else from git.
const { execFileSync } = require('node:child_process');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    return '';
  }
}

const info = { commit: process.env.BUILD_COMMIT || gitCommit(), buildDate: new Date().toISOString().replace(/\.\d+Z$/, 'Z') };
writeFileSync(join(__dirname, '..', 'dist', 'build-info.json'), `${JSON.stringify(info)}\n`);
