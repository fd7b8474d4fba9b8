/**
 * `storage.type: local` and symbolic links, on real directories: links inside the directory are followed, links that
 * lead out of it are not (a state file behind one is refused without being opened), and links that loop end the walk.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { directoryTree, LocalSource } from './local-source';
import { readStateFiles } from './state-files';

describe('local storage: symbolic links', () => {
  let base: string;
  let dir: string;
  let outside: string;
  const write = (path: string, text: string) => {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
  };

  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'flagpole-links-'));
    dir = join(base, 'flags');
    outside = join(base, 'secrets');
    write(join(dir, 'team', 'features.yml'), 'namespace: team\n');
    write(join(outside, 'features.yml'), 'root-password: hunter2\n');
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('refuses a state file that links out of the directory, naming it and not what it points to', async () => {
    symlinkSync(join(outside, 'features.yml'), join(dir, 'features.yml'));
    const source = new LocalSource(dir, 60_000);
    const refused = await (await source.current()).files().then(() => null, (e: Error) => e.message);
    expect(refused).toBe(`features.yml: a symbolic link that leads out of ${dir} is not followed`);
    expect(refused).not.toContain('root-password');
  });

  it('refuses a relative link out of the directory too', async () => {
    symlinkSync('../../secrets/features.yml', join(dir, 'team', 'more.features.yml'));
    await expect(readStateFiles(directoryTree(dir))).rejects.toThrow('team/more.features.yml: a symbolic link that leads out of');
  });

  it('does not walk a directory that a link leads out to', async () => {
    symlinkSync(outside, join(dir, 'elsewhere'));
    expect(await directoryTree(dir).list()).toEqual(['elsewhere', 'team/features.yml']);
    const read = await readStateFiles(directoryTree(dir));
    expect(read.files.map((f) => f.path)).toEqual(['team/features.yml']);
  });

  it('follows links that stay inside the directory', async () => {
    symlinkSync('team/features.yml', join(dir, 'current.features.yml'));
    symlinkSync(join(dir, 'team'), join(dir, 'z-alias'));
    const read = await readStateFiles(directoryTree(dir));
    // `z-alias` is `team` again: walked once, under the name met first.
    expect(read.files).toEqual([
      { path: 'current.features.yml', text: 'namespace: team\n' },
      { path: 'team/features.yml', text: 'namespace: team\n' },
    ]);
  });

  it('ends the walk through links that loop, listing each file once', async () => {
    // Two loops: without a record of the directories walked, 2^40 paths before the kernel's link limit stops one.
    symlinkSync('.', join(dir, 'loop'));
    symlinkSync('..', join(dir, 'team', 'up'));
    symlinkSync('a', join(dir, 'b'));
    symlinkSync('b', join(dir, 'a'));
    expect(await directoryTree(dir).list()).toEqual(['a', 'b', 'team/features.yml']);
    expect((await readStateFiles(directoryTree(dir))).files.map((f) => f.path)).toEqual(['team/features.yml']);
  });
});
