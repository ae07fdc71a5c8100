import { closeSync, mkdirSync, openSync, rmdirSync, statSync, statfsSync, unlinkSync, type Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The check of a script's output folder (or output file), done before any work starts so that a
 * long run never ends unable to write its results. Every step is one system call that cannot loop:
 * the path is walked up to its nearest existing ancestor with `statSync`, which must be a folder on
 * a real file system (not the kernel's /proc, /sys and the like); the missing folders are made one
 * at a time with a non-recursive `mkdirSync` (Node's recursive one never returns for `/proc/nope`);
 * then a temporary file is created and removed in the folder to prove it is writable.
 */

/** The outcome: the folder (or the file's folder) is there and writable, or the one-line reason it is not. */
export type OutputCheck = { ok: true } | { ok: false; message: string };

/** Linux's magic numbers of the kernel's virtual file systems (`statfs(2)`), where no results belong. */
const VIRTUAL_FILE_SYSTEMS: Record<number, string> = {
  0x9fa0: 'proc',
  0x62656572: 'sysfs',
  0x1cd1: 'devpts',
  0x27e0eb: 'cgroup',
  0x63677270: 'cgroup2',
  0x64626720: 'debugfs',
  0x74726163: 'tracefs',
  0x73636673: 'securityfs',
  0xcafe4a11: 'bpf',
  0x62656570: 'configfs',
  0x6165676c: 'pstore',
  0xde5e81e4: 'efivarfs',
  0xf97cff8c: 'selinuxfs',
  0x42494e4d: 'binfmt_misc',
  0x65735543: 'fusectl',
  0x19800202: 'mqueue',
};

/** A file-system error's code in words, e.g. "permission denied (EACCES)". */
function reason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  const words: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'not permitted',
    EROFS: 'the file system is read-only',
    ENOSPC: 'the disk is full',
    EDQUOT: 'the disk quota is used up',
    ENOENT: 'the file system refuses to make it',
    ENOTDIR: 'a part of the path is not a folder',
    ENAMETOOLONG: 'the name is too long',
    ELOOP: 'too many symbolic links',
  };
  return code ? `${words[code] ?? 'it failed'} (${code})` : String(e);
}

/** What a path that is not a folder is, e.g. "a file" or "a device" (/dev/null). */
function kindOf(s: Stats): string {
  if (s.isFile()) return 'a file';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  if (s.isFIFO()) return 'a pipe';
  if (s.isSocket()) return 'a socket';
  return 'something else';
}

/** `statSync`, with undefined for a path that does not exist (or whose parent is not a folder). */
function statOrMissing(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw e;
  }
}

/**
 * Makes sure `folder` exists (making the missing folders, one level at a time) and is writable.
 * Returns the reason in one line when it cannot be, e.g. `/dev/null is not a folder` or `/proc is
 * the kernel's proc file system, not a place for files`; folders it made before failing are removed.
 */
export function prepareOutputFolder(folder: string): OutputCheck {
  return prepare(folder, folder);
}

/** `prepareOutputFolder` of `folder`, its messages starting with `shown` (the path as the user typed it). */
function prepare(folder: string, shown: string): OutputCheck {
  const target = resolve(folder);
  const missing: string[] = [];
  let at = target;
  let stats: Stats | undefined;
  try {
    while ((stats = statOrMissing(at)) === undefined) {
      missing.unshift(at);
      const up = dirname(at);
      if (up === at) return { ok: false, message: `${shown}: no part of the path exists` };
      at = up;
    }
  } catch (e) {
    return { ok: false, message: `${shown}: cannot look at ${at}: ${reason(e)}` };
  }
  if (!stats.isDirectory()) return { ok: false, message: `${at === target && shown === folder ? shown : `${shown}: ${at}`} is ${kindOf(stats)}, not a folder` };
  if (process.platform === 'linux') {
    let type: number | undefined;
    try {
      type = statfsSync(at).type;
    } catch {
      type = undefined; // no answer: the creation and write probe below still decide
    }
    const fs = type === undefined ? undefined : VIRTUAL_FILE_SYSTEMS[type];
    if (fs) return { ok: false, message: `${shown}: ${at} is on the kernel's ${fs} file system, not a place for files: choose a folder on a disk` };
  }
  const made: string[] = [];
  const undo = () => {
    for (const d of made.reverse())
      try {
        rmdirSync(d);
      } catch {
        // left as it is: it is empty, and harmless
      }
  };
  for (const d of missing) {
    try {
      mkdirSync(d);
      made.push(d);
    } catch (e) {
      undo();
      return { ok: false, message: `${shown}: cannot make the folder ${d}: ${reason(e)}` };
    }
  }
  const probe = join(target, `.write-check-${process.pid}-${Date.now()}`);
  try {
    closeSync(openSync(probe, 'wx'));
    unlinkSync(probe);
  } catch (e) {
    undo();
    return { ok: false, message: `${shown}: cannot write in ${target}: ${reason(e)}` };
  }
  return { ok: true };
}

/**
 * Makes sure `file` can be written later: when it exists, it is not a folder and opens for writing
 * (a device such as /dev/null does); when it does not, its folder is made as `prepareOutputFolder` does.
 */
export function prepareOutputFile(file: string): OutputCheck {
  let stats: Stats | undefined;
  try {
    stats = statOrMissing(file);
  } catch (e) {
    return { ok: false, message: `${file}: cannot look at it: ${reason(e)}` };
  }
  if (stats === undefined) return prepare(dirname(resolve(file)), file);
  if (stats.isDirectory()) return { ok: false, message: `${file} is a folder, not a file to write` };
  try {
    closeSync(openSync(file, 'r+'));
  } catch (e) {
    return { ok: false, message: `${file}: cannot write it: ${reason(e)}` };
  }
  return { ok: true };
}

/** Checks `path` (the value of `--flag`) as an output folder or file; on a problem prints `label: --flag <reason>` and exits with code 2. */
export function requireOutput(label: string, flag: string, path: string, kind: 'folder' | 'file'): void {
  const check = kind === 'folder' ? prepareOutputFolder(path) : prepareOutputFile(path);
  if (check.ok) return;
  process.stderr.write(`${label}: --${flag} ${check.message}\n`);
  process.exit(2);
}
