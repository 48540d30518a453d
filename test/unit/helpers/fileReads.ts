// Counts how often this process opens and reads each file, by path: the core reads files through
// fs.promises (open, then the handle's read and readFile), so wrapping those while a test runs
// sees every read of a media file, whatever path through the core it takes. Reads by the
// synchronous calls are counted too (readFileSync, readSync on a descriptor from openSync).
import type * as fs from 'node:fs';
import { resolve } from 'node:path';

export interface FileReads {
  opens: number;
  /** Read calls, the one that finds the end of the file included. */
  reads: number;
  bytes: number;
}

export interface ReadCounter {
  /** What was counted for this path (zeros when nothing). */
  of(path: string): FileReads;
  /** Stops counting and puts the originals back. */
  restore(): void;
}

type FileHandle = fs.promises.FileHandle;

export async function countFileReads(): Promise<ReadCounter> {
  const counts = new Map<string, FileReads>();
  const entry = (path: string) => {
    let found = counts.get(path);
    if (!found) counts.set(path, (found = { opens: 0, reads: 0, bytes: 0 }));
    return found;
  };
  const paths = new WeakMap<FileHandle, string>();
  const descriptors = new Map<number, string>();
  // The module object itself (an import's namespace is read-only).
  const fsModule = require('node:fs') as typeof fs;
  const promises = fsModule.promises;
  // The class of file handles, from one.
  const probe = await promises.open(__filename, 'r');
  const handleProto = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();

  const original = {
    open: promises.open,
    read: handleProto.read,
    readFile: handleProto.readFile,
    openSync: fsModule.openSync,
    readSync: fsModule.readSync,
    readFileSync: fsModule.readFileSync,
    closeSync: fsModule.closeSync,
  };
  promises.open = async function (this: unknown, path: fs.PathLike, ...rest: unknown[]) {
    const handle = await (original.open as (...args: unknown[]) => Promise<FileHandle>).call(this, path, ...rest);
    const key = resolve(String(path));
    paths.set(handle, key);
    entry(key).opens++;
    return handle;
  } as typeof promises.open;
  handleProto.read = async function (this: FileHandle, ...args: unknown[]) {
    const result = await (original.read as (...a: unknown[]) => Promise<{ bytesRead: number }>).apply(this, args);
    const path = paths.get(this);
    if (path) {
      entry(path).reads++;
      entry(path).bytes += result.bytesRead;
    }
    return result;
  } as FileHandle['read'];
  handleProto.readFile = async function (this: FileHandle, ...args: unknown[]) {
    const result = await (original.readFile as (...a: unknown[]) => Promise<Buffer | string>).apply(this, args);
    const path = paths.get(this);
    if (path) {
      entry(path).reads++;
      entry(path).bytes += Buffer.byteLength(result);
    }
    return result;
  } as FileHandle['readFile'];
  const mutableFs = fsModule as unknown as Record<string, unknown>;
  mutableFs.openSync = function (path: fs.PathLike, ...rest: unknown[]) {
    const fd = (original.openSync as (...args: unknown[]) => number)(path, ...rest);
    const key = resolve(String(path));
    descriptors.set(fd, key);
    entry(key).opens++;
    return fd;
  };
  mutableFs.closeSync = function (fd: number) {
    descriptors.delete(fd);
    return original.closeSync(fd);
  };
  mutableFs.readSync = function (fd: number, ...rest: unknown[]) {
    const bytes = (original.readSync as (...args: unknown[]) => number)(fd, ...rest);
    const path = descriptors.get(fd);
    if (path) {
      entry(path).reads++;
      entry(path).bytes += bytes;
    }
    return bytes;
  };
  mutableFs.readFileSync = function (path: fs.PathOrFileDescriptor, ...rest: unknown[]) {
    const result = (original.readFileSync as (...args: unknown[]) => Buffer | string)(path, ...rest);
    if (typeof path !== 'number') {
      const key = resolve(String(path));
      entry(key).opens++;
      entry(key).reads++;
      entry(key).bytes += Buffer.byteLength(result);
    }
    return result;
  };
  return {
    of: (path) => ({ ...(counts.get(resolve(path)) ?? { opens: 0, reads: 0, bytes: 0 }) }),
    restore: () => {
      promises.open = original.open;
      handleProto.read = original.read;
      handleProto.readFile = original.readFile;
      mutableFs.openSync = original.openSync;
      mutableFs.closeSync = original.closeSync;
      mutableFs.readSync = original.readSync;
      mutableFs.readFileSync = original.readFileSync;
    },
  };
}
