// How many of this process's file descriptors are open on files in a folder, from Linux's
// /proc/self/fd: a handle left for the garbage collector to close still counts there. Tests that
// use it skip on other systems.
import { readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { sep } from 'node:path';

export const canCountDescriptors = process.platform === 'linux';

/** The paths (as /proc names them: real paths) of open descriptors on files under `folder`. */
export function openDescriptorsUnder(folder: string): string[] {
  // /proc names the real path: a temporary folder reached through a link would never match.
  const prefix = realpathSync(folder) + sep;
  const open: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(prefix)) open.push(target);
    } catch {
      // Closed while listed.
    }
  }
  return open;
}
