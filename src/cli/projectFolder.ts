// The folder whose .spot-import/ holds a run's journal, run lock and downloads: the project's,
// however deep in it the command runs, so two runs on the same documents share one journal and
// one lock (a run from the project and one from a folder inside it once kept a journal each, and
// run together both uploaded every photo). The project is the nearest folder, from the one the
// command runs in upward, that holds the settings file in use (spot-import.json) or is the top of
// a repository (.git, a folder or a worktree's file); else the folder the command runs in. The
// nearer wins: a spot-import.json in the home folder does not gather every repository below it,
// and a settings file named with --config elsewhere does not move the journal there.
import { promises as fs } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export async function projectFolder(cwd: string, configFile: string | undefined): Promise<string> {
  const settingsFolder = configFile === undefined ? undefined : dirname(resolve(cwd, configFile));
  for (let folder = resolve(cwd); ; folder = dirname(folder)) {
    if (folder === settingsFolder || (await exists(join(folder, '.git')))) return folder;
    if (dirname(folder) === folder) return resolve(cwd);
  }
}

async function exists(path: string): Promise<boolean> {
  return fs.stat(path).then(
    () => true,
    () => false,
  );
}
