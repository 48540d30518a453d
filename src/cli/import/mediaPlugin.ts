// Where the import engine (src/core/import/) plugs into the command line: the runner `import`
// uses (the engine over documents, or over the rows of a table; --no-media sends the documents
// only, through the same journal; --dry-run is the engine's check, checkSpots).
import type { ImportJob, ImportRunner } from './importRunner';
import { importRows } from './rowsRunner';
import { importWithWorkflow } from './workflowRunner';

/** The runner for this import: the engine's over documents, or over the rows of a table. */
export function selectImportRunner(job: Pick<ImportJob, 'rows'>): ImportRunner {
  return job.rows ? importRows : importWithWorkflow;
}
