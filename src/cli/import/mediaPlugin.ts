// Where the import engine (src/core/import/) plugs into the command line: the runner `import`
// uses (the workflow for every document; --no-media sends the documents only, through the same
// journal), and the convention for which document a media folder belongs to. `validate` runs the
// workflow's own pre-flight check (checkSpotMedia) through checkDocument.ts.
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { ImportJob, ImportRunner } from './importRunner';
import { importRows } from './rowsRunner';
import { importWithWorkflow } from './workflowRunner';

/** The runner for this import: the engine's over documents, or over the rows of a table. */
export function selectImportRunner(job: Pick<ImportJob, 'rows'>): ImportRunner {
  return job.rows ? importRows : importWithWorkflow;
}

/**
 * The document a media folder belongs to, by the workflow's convention (walk.media/ beside
 * walk.spot.json, see mediaFolderFor), or undefined when the folder is not a media folder or has
 * no document.
 */
export async function documentOfMediaFolder(folder: string): Promise<string | undefined> {
  const name = basename(folder);
  if (!/\.media$/i.test(name)) return undefined;
  const stem = name.slice(0, -'.media'.length);
  for (const candidate of [`${stem}.spot.json`, `${stem}.json`]) {
    const path = join(dirname(folder), candidate);
    if (await fs.stat(path).then((stats) => stats.isFile(), () => false)) return path;
  }
  return undefined;
}
