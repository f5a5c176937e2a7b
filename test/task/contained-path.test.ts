// containedPath: real folders and symlinks in a temp folder; every way out of the root is refused with the field named.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PathEscapeError, containedPath, firstContaining } from '../../src/task/contained-path.ts';

function tree() {
  const top = mkdtempSync(join(tmpdir(), 'deskbench-contained-'));
  const root = join(top, 'root');
  const outside = join(top, 'outside');
  mkdirSync(join(root, 'sub'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret'), 'x');
  return { top, root, outside };
}

describe('containedPath', () => {
  it('resolves names, nested paths and absolute paths that stay inside the root', () => {
    const { root } = tree();
    expect(containedPath(root, 'a.txt', { field: 'dest' })).toBe(join(root, 'a.txt'));
    expect(containedPath(root, 'sub/../sub/b.txt', { field: 'dest' })).toBe(join(root, 'sub', 'b.txt'));
    expect(containedPath(root, 'new/folder/c.txt', { field: 'dest' })).toBe(join(root, 'new', 'folder', 'c.txt'));
    expect(containedPath(root, join(root, 'sub', 'd'), { field: 'dest' })).toBe(join(root, 'sub', 'd'));
  });

  it.each([
    ['../x', /leads outside its folder/],
    ['sub/../../x', /leads outside its folder/],
    ['..', /leads outside its folder/],
    ['.', /leads outside its folder/],
    ['', /leads outside its folder/],
    ['/tmp/x', /is an absolute path outside its folder/],
    ['a\0b', /contains a NUL character/],
  ])('refuses %j', (path, reason) => {
    const { root } = tree();
    let error: unknown;
    try {
      containedPath(root, path, { file: '/tasks/t.json', field: 'config.dest' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PathEscapeError);
    expect((error as PathEscapeError).message).toMatch(reason);
    expect((error as PathEscapeError).message).toContain(`/tasks/t.json: config.dest ${JSON.stringify(path)}`);
    expect((error as PathEscapeError).message).toContain(`it must stay inside ${root}`);
    expect(error).toMatchObject({ field: 'config.dest', root, file: '/tasks/t.json' });
  });

  it('refuses symlinks that lead outside: to a folder, to a file, and dangling ones (writing would create the target)', () => {
    const { root, outside } = tree();
    symlinkSync(outside, join(root, 'dirlink'));
    symlinkSync(join(outside, 'secret'), join(root, 'filelink'));
    symlinkSync(join(outside, 'not-yet'), join(root, 'dangling'));
    for (const path of ['dirlink/secret', 'dirlink/new/file', 'filelink', 'dangling', 'dangling/x']) {
      expect(() => containedPath(root, path, { field: 'dest' }), path).toThrow(/goes through a symbolic link/);
    }
  });

  it('accepts symlinks that stay inside, and a root that is itself reached through a symlink', () => {
    const { top, root } = tree();
    symlinkSync(join(root, 'sub'), join(root, 'inner'));
    expect(containedPath(root, 'inner/f', { field: 'dest' })).toBe(join(root, 'inner', 'f'));
    symlinkSync(root, join(top, 'alias'));
    expect(containedPath(join(top, 'alias'), 'sub/f', { field: 'dest' })).toBe(join(top, 'alias', 'sub', 'f'));
  });

  it('firstContaining picks the first root that holds the path', () => {
    const { top, root } = tree();
    expect(firstContaining([join(root, 'sub'), root], join(root, 'x'))).toBe(join(root, 'x'));
    expect(firstContaining([join(root, 'sub'), root], join(top, 'outside', 'secret'))).toBeUndefined();
  });
});
