import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readChecked } from '../src/read-file.ts';
import { isInside, locate, narrowRoots, resolveRoots } from '../src/roots.ts';

let base = '';
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'docmill-roots-'));
  for (const d of ['a/b', 'ab', 'out']) mkdirSync(join(base, d), { recursive: true });
  writeFileSync(join(base, 'a/b/doc.txt'), 'hello');
  writeFileSync(join(base, 'ab/doc.txt'), 'sibling');
  writeFileSync(join(base, 'out/secret.txt'), 'secret');
  symlinkSync(join(base, 'out'), join(base, 'a/door'));
  symlinkSync(join(base, 'a'), join(base, 'alias'));
  execFileSync('mkfifo', [join(base, 'a/fifo.pdf')]);
});
afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

describe('roots', () => {
  it('isInside compares path segments, not string prefixes', () => {
    expect(isInside('/a/b', '/a')).toBe(true);
    expect(isInside('/a', '/a')).toBe(true);
    expect(isInside('/ab', '/a')).toBe(false);
    expect(isInside('/a/../b', '/a')).toBe(false);
    expect(isInside('/etc/passwd', '/')).toBe(true);
    expect(isInside('/a/..b', '/a')).toBe(true); // a file named "..b" inside /a
  });

  it('resolves relative paths from the first root and refuses what lies outside every root', async () => {
    const roots = await resolveRoots(['a'], base);
    expect(await locate('b/doc.txt', roots)).toBe(join(base, 'a/b/doc.txt'));
    await expect(locate('../ab/doc.txt', roots)).rejects.toThrow(/is outside the folders this server may read/);
    await expect(locate(join(base, 'ab/doc.txt'), roots)).rejects.toThrow(/outside/);
    await expect(locate('b/missing.txt', roots)).rejects.toThrow('No such file: b/missing.txt');
    await expect(locate('b/doc.txt\0.pdf', roots)).rejects.toThrow(/NUL/);
  });

  it('resolves symbolic links before deciding: a link out of the root is refused, a root given through a link works', async () => {
    const roots = await resolveRoots(['a'], base);
    await expect(locate('door/secret.txt', roots)).rejects.toThrow(/symbolic link to a file outside/);
    const viaLink = await resolveRoots(['alias'], base);
    expect(await locate('b/doc.txt', viaLink)).toBe(join(base, 'a/b/doc.txt'));
    await expect(resolveRoots(['nope'], base)).rejects.toThrow(/does not exist/);
  });

  it('client roots narrow the operator roots and never widen them', async () => {
    const operator = await resolveRoots(['a'], base);
    const uri = (p: string) => pathToFileURL(join(base, p)).href;
    const narrowed = await narrowRoots(operator, [uri('a/b'), uri('out'), 'https://example.com/', uri('missing')]);
    expect(narrowed.map((r) => r.real)).toEqual([join(base, 'a/b')]);
    await expect(locate(join(base, 'a/b/doc.txt'), narrowed)).resolves.toBe(join(base, 'a/b/doc.txt'));
    await expect(locate(join(base, 'ab/doc.txt'), narrowed)).rejects.toThrow(/outside/);
    // A client root wider than the operator's keeps the operator's.
    expect((await narrowRoots(operator, [pathToFileURL(base).href])).map((r) => r.real)).toEqual([join(base, 'a')]);
    const none = await narrowRoots(operator, [uri('out')]);
    expect(none).toEqual([]);
    await expect(locate('b/doc.txt', none)).rejects.toThrow(/the client announced roots outside the server/);
  });
});

describe('reading a checked file', () => {
  it('reads regular files only, never waiting on a FIFO', async () => {
    expect(new TextDecoder().decode(await readChecked(join(base, 'a/b/doc.txt'), 'doc.txt', 100))).toBe('hello');
    await expect(readChecked(join(base, 'a/fifo.pdf'), 'fifo.pdf', 100)).rejects.toThrow(
      'fifo.pdf is not a regular file.',
    );
    await expect(readChecked(join(base, 'a/b'), 'b', 100)).rejects.toThrow('b is a folder: pass one file.');
  });

  it('refuses a file over the size limit before reading it, and a link swapped in after the check', async () => {
    await expect(readChecked(join(base, 'a/b/doc.txt'), 'doc.txt', 4)).rejects.toThrow(
      /doc\.txt exceeds the maximum size/,
    );
    // O_NOFOLLOW: the checked path itself turned into a link.
    await expect(readChecked(join(base, 'a/door'), 'door', 100)).rejects.toThrow(/Cannot open door \(E(LOOP|NOTDIR)\)/);
  });
});
