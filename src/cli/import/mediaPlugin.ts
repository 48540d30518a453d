// ┌──────────────────────────────────────────────────────────────────────────────────────────┐
// │ THE ONE PLACE WHERE THE MEDIA WORKFLOW PLUGS INTO THE COMMAND LINE.                        │
// │ The workflow (src/core/media/, the media issue: upload a document's <name>.media/ files    │
// │ into its pending galleries, set their order, re-import with state 1, write the gallery ids │
// │ back, all resumable through its journal) is not part of this build yet. When it lands,    │
// │ replace the bodies below; nothing else in src/cli needs to change:                        │
// │  - selectImportRunner: return a runner that wraps the workflow when job.media.upload is   │
// │    on (it gets the same ImportJob: files, client, concurrency, signals, journalDir,        │
// │    report/progress/note, dryRun, media.writeBack / keepInProgress / settings);            │
// │  - checkDocumentMedia: the workflow's pre-flight check of a document's media folder       │
// │    (field names, files readable, accepted types), used by `validate`;                     │
// │  - documentOfMediaFolder: the workflow's rule for which document a media folder serves.   │
// └──────────────────────────────────────────────────────────────────────────────────────────┘
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { SpotDocument } from '../../core';
import { importDocumentsOnly } from './documentsOnly';
import type { ImportJob, ImportRunner } from './importRunner';

/** The runner for this import: documents only until the media workflow is plugged in here. */
export function selectImportRunner(_job: Pick<ImportJob, 'media'>): ImportRunner {
  // With the workflow: return _job.media.upload ? mediaWorkflowRunner : importDocumentsOnly;
  return importDocumentsOnly;
}

/** A problem with a document's media, placed on a file of its media folder (or the document). */
export interface MediaProblem {
  /** The media file or folder concerned (absolute path). */
  path: string;
  message: string;
}

/** Problems of the media that belong to a valid document. None until the workflow is plugged in. */
export async function checkDocumentMedia(_documentPath: string, _document: SpotDocument): Promise<MediaProblem[]> {
  return [];
}

/**
 * The document a media folder belongs to, by the design's convention (walk.media/ beside
 * walk.spot.json), or undefined when the folder is not a media folder or has no document.
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
