import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareOutputFile, prepareOutputFolder } from './outputFolder';

const dir = mkdtempSync(join(tmpdir(), 'swarm-output-folder-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const refusal = (c: ReturnType<typeof prepareOutputFolder>) => (c.ok ? 'accepted' : c.message);
const linux = process.platform === 'linux';
/** Root writes through any permission bits, so a read-only folder can only be tried as another user. */
const root = process.getuid?.() === 0;

describe('prepareOutputFolder', () => {
  it('makes the missing folders, one level at a time, and leaves nothing else in them', () => {
    const out = join(dir, 'a', 'b', 'c');
    expect(prepareOutputFolder(out)).toEqual({ ok: true });
    expect(statSync(out).isDirectory()).toBe(true);
    expect(readdirSync(out)).toEqual([]);
  });

  it('accepts an existing folder, and keeps what is in it', () => {
    const out = join(dir, 'kept');
    mkdirSync(out);
    writeFileSync(join(out, 'x.txt'), 'x');
    expect(prepareOutputFolder(out)).toEqual({ ok: true });
    expect(readdirSync(out)).toEqual(['x.txt']);
  });

  it('refuses a file in the way, itself or as a parent, and makes nothing', () => {
    const file = join(dir, 'file');
    writeFileSync(file, 'x');
    expect(refusal(prepareOutputFolder(file))).toBe(`${file} is a file, not a folder`);
    expect(refusal(prepareOutputFolder(join(file, 'sub', 'deeper')))).toBe(`${join(file, 'sub', 'deeper')}: ${file} is a file, not a folder`);
  });

  it.runIf(linux)('refuses a folder under /dev/null (a device) and the kernel file systems /proc and /sys, without waiting', () => {
    expect(refusal(prepareOutputFolder('/dev/null/x'))).toBe('/dev/null/x: /dev/null is a device, not a folder');
    expect(refusal(prepareOutputFolder('/proc/nope'))).toBe(
      "/proc/nope: /proc is on the kernel's proc file system, not a place for files: choose a folder on a disk",
    );
    expect(refusal(prepareOutputFolder('/proc/self/nope/deeper'))).toMatch(/is on the kernel's proc file system/);
    expect(existsSync('/proc/nope')).toBe(false);
    expect(refusal(prepareOutputFolder('/sys/nope'))).toMatch(/^\/sys\/nope: \/sys is on the kernel's sysfs file system/);
  });

  it.skipIf(root)('refuses a read-only folder and removes the folders it made on the way', () => {
    const ro = join(dir, 'read-only');
    mkdirSync(ro);
    chmodSync(ro, 0o555);
    try {
      expect(refusal(prepareOutputFolder(ro))).toMatch(/cannot write in .*permission denied \(EACCES\)/);
      expect(refusal(prepareOutputFolder(join(ro, 'x', 'y')))).toMatch(/cannot make the folder .*permission denied \(EACCES\)/);
      expect(readdirSync(ro)).toEqual([]);
    } finally {
      chmodSync(ro, 0o755);
    }
  });
});

describe('prepareOutputFile', () => {
  it("makes the file's folder and accepts a file that is not there yet or can be overwritten", () => {
    const file = join(dir, 'json', 'deep', 'bench.json');
    expect(prepareOutputFile(file)).toEqual({ ok: true });
    expect(statSync(join(dir, 'json', 'deep')).isDirectory()).toBe(true);
    expect(existsSync(file)).toBe(false);
    writeFileSync(file, '{}');
    expect(prepareOutputFile(file)).toEqual({ ok: true });
  });

  it('refuses a folder where the file should be, and a file under a file', () => {
    expect(refusal(prepareOutputFile(dir))).toBe(`${dir} is a folder, not a file to write`);
    const file = join(dir, 'plain');
    writeFileSync(file, 'x');
    expect(refusal(prepareOutputFile(join(file, 'x.json')))).toBe(`${join(file, 'x.json')}: ${file} is a file, not a folder`);
  });

  it.runIf(linux)('accepts /dev/null and refuses a file in /proc', () => {
    expect(prepareOutputFile('/dev/null')).toEqual({ ok: true });
    expect(refusal(prepareOutputFile('/proc/out.json'))).toMatch(/^\/proc\/out\.json: \/proc is on the kernel's proc file system/);
  });
});
