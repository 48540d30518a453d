// The project's topic definitions, loaded once per run (the core's loadProjectTopics): the folder
// named by --topics-folder or "topicsFolder" of spot-import.json, else the nearest spot-topics/
// above the current folder. A broken definition file is reported against its own path (and makes
// the run exit 1), is left out of the catalog, and never stops documents from being checked by
// the base rules and the other definitions.
import { dirname, resolve } from 'node:path';
import { findTopicsFolder, loadProjectTopics, type TopicCatalog } from '../../core';
import { CliError } from '../exit';
import type { Outcome } from '../output/records';
import type { CliSettings } from '../settings/resolveSettings';
import { toFindings } from './documentRules';

export interface ProjectTopics {
  catalog: TopicCatalog;
  /** One outcome per definition file with problems, in name order. */
  outcomes: Outcome[];
  /** The folder the definitions were read from, if there is one. */
  folder?: string;
  /** Every definition file read (absolute paths): named on the command line too, each is still reported once. */
  files: ReadonlySet<string>;
  /** A spot-topics/ above the paths named that is not used, as none was found from the current folder: said, since the run checks without it. */
  unused?: string;
}

export async function projectTopics(
  settings: Pick<CliSettings, 'topicsFolder'>,
  cwd: string,
  display: (path: string) => string,
  paths: readonly string[] = [],
): Promise<ProjectTopics> {
  let set;
  try {
    set = await loadProjectTopics(
      cwd,
      settings.topicsFolder ? { topicsFolder: settings.topicsFolder.folder, configDir: settings.topicsFolder.relativeTo } : {},
    );
  } catch (error) {
    // A file of the folder that cannot be read is a problem on that file; what is left is the
    // folder itself, which only a setting can have got wrong when one named it.
    const advice = settings.topicsFolder ? ' Fix "topicsFolder" in spot-import.json or --topics-folder.' : '';
    throw new CliError(`${(error as Error).message}${advice}`);
  }
  const outcomes: Outcome[] = [];
  for (const file of set.files) {
    if (file.problems.length === 0) continue;
    const findings = toFindings(file.text ?? '', file.problems);
    const errors = findings.filter((finding) => finding.severity === 'error');
    const name = display(file.path);
    outcomes.push(
      errors.length > 0
        ? {
            file: name,
            kind: 'topicDefinition',
            status: 'invalid',
            ok: false,
            reason: `${errors[0].message}${file.definition ? '' : ' This definition is not used.'}`,
            failure: 'document',
            findings,
          }
        : { file: name, kind: 'topicDefinition', status: 'valid', ok: true, findings },
    );
  }
  const files = new Set(set.files.map((file) => file.path));
  // Run from outside the project: its definitions beside the documents would be left out in silence.
  const unused = set.folder === undefined && paths.length > 0 ? await findTopicsFolder(dirname(resolve(cwd, paths[0]))) : undefined;
  return unused ? { catalog: set.catalog, outcomes, folder: set.folder, files, unused } : { catalog: set.catalog, outcomes, folder: set.folder, files };
}

/** What to say of a spot-topics/ the run does not use (ProjectTopics.unused). */
export function unusedTopicsNote(folder: string, display: (path: string) => string): string {
  return `${display(folder)} is not used: topic definitions are found from the folder the command runs in upward. Run it from the project, or pass --topics-folder ${display(folder)}.`;
}
