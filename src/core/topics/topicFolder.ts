// All the topic definitions of a project: every *.topic.json in one folder (spot-topics/, or the
// folder a setting names). A broken file is reported and left out; the same topic_id in two
// files is reported on the later one (by file name), which is left out, so the result never
// depends on the order a file system lists files in.
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { parseTopicDefinition } from './parseTopicDefinition';
import { readTopicFiles, type TopicFileInput } from './readTopicFiles';
import { locateInTree } from '../documents/locate';
import { withoutByteOrderMark } from '../documents/parseSpotText';
import { TOPIC_RULES, type TopicProblem } from './topicProblem';
import type { TopicDefinition } from './topicSchema';
import { parseTree } from 'jsonc-parser';
import { l10n } from '../text/l10n';

export const TOPICS_FOLDER_NAME = 'spot-topics';
export const TOPIC_FILE_PATTERN = /\.topic\.json$/i;

export interface TopicFileReport {
  /** As given (a file path or an editor URI string). */
  path: string;
  /** Present when the file is in effect. */
  definition?: TopicDefinition;
  problems: TopicProblem[];
  /** The text the problems' offsets are in (less a byte-order mark), when there are problems: reporting them needs no second read. */
  text?: string;
}

export interface TopicSet {
  /** In effect, by topic_id: what checkSpotAgainstTopic takes. */
  catalog: Map<number, TopicDefinition>;
  /** Every file read, in name order, with its problems. */
  files: TopicFileReport[];
}

export function collectTopicDefinitions(files: ReadonlyArray<TopicFileInput>): TopicSet {
  const catalog = new Map<number, TopicDefinition>();
  const origin = new Map<number, string>();
  const reports: TopicFileReport[] = [];
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    if ('problem' in file) {
      reports.push({ path: file.path, problems: [file.problem] });
      continue;
    }
    const text = withoutByteOrderMark(file.text);
    const parsed = parseTopicDefinition(text);
    const definition = parsed.definition;
    if (definition && catalog.has(definition.topic_id)) {
      const first = basename(origin.get(definition.topic_id)!);
      const span = locateInTree(parseTree(text)!, ['topic_id']);
      reports.push({
        path: file.path,
        text,
        problems: [
          {
            pointer: '/topic_id',
            message: l10n.t('topic_id {0} is already defined in {1}; this file is not used.', definition.topic_id, first),
            ...span,
            severity: 'error',
            rule: TOPIC_RULES.duplicateTopic,
          },
        ],
      });
      continue;
    }
    if (definition) {
      catalog.set(definition.topic_id, definition);
      origin.set(definition.topic_id, file.path);
    }
    reports.push({ path: file.path, definition, problems: parsed.problems, ...(parsed.problems.length > 0 ? { text } : {}) });
  }
  return { catalog, files: reports };
}

/**
 * Reads every *.topic.json of `folder` (not its subfolders). A folder that does not exist holds
 * none. Every name is read, whatever it is: a link is followed, and a link to nothing or a folder
 * is a problem on that name rather than a file silently left out.
 */
export async function loadTopicFolder(folder: string): Promise<TopicSet> {
  let names: string[];
  try {
    names = (await readdir(folder)).filter((name) => TOPIC_FILE_PATTERN.test(name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { catalog: new Map(), files: [] };
    throw error;
  }
  return collectTopicDefinitions(await readTopicFiles(names.map((name) => join(folder, name))));
}

export interface TopicsFolderOptions {
  /** `topicsFolder` from spot-import.json (or a flag): relative to `configDir`, or absolute. */
  topicsFolder?: string;
  /** The folder of the configuration file that named `topicsFolder`; default: the start folder. */
  configDir?: string;
}

/**
 * Where a project's definitions are: the configured folder when one is named, else the nearest
 * spot-topics/ found walking up from `start`. undefined when there is none.
 */
export async function findTopicsFolder(start: string, options: TopicsFolderOptions = {}): Promise<string | undefined> {
  if (options.topicsFolder?.trim()) return resolve(options.configDir ?? start, options.topicsFolder.trim());
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    const candidate = join(dir, TOPICS_FOLDER_NAME);
    if (await isFolder(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The command line's one call: finds the folder and loads it. A configured folder that does not
 * exist, or is a file, is an error (a wrong setting must not silently switch the checks off); a spot-topics/
 * that is not there just means no definitions.
 */
export async function loadProjectTopics(start: string, options: TopicsFolderOptions = {}): Promise<TopicSet & { folder?: string }> {
  const folder = await findTopicsFolder(start, options);
  if (!folder) return { catalog: new Map(), files: [] };
  if (options.topicsFolder?.trim()) {
    // Said as it is: "does not exist" for a file that is there sends the user looking for a typo.
    const found = await stat(folder).catch((error: NodeJS.ErrnoException) => error);
    if (found instanceof Error) {
      const missing = found.code === 'ENOENT' || found.code === 'ENOTDIR';
      throw new Error(
        missing
          ? l10n.t('The topics folder {0} (topicsFolder) does not exist.', folder)
          : l10n.t('The topics folder {0} (topicsFolder) cannot be read: {1}.', folder, found.message),
      );
    }
    if (!found.isDirectory()) throw new Error(l10n.t('The topics folder {0} (topicsFolder) is not a folder.', folder));
  }
  return { folder, ...(await loadTopicFolder(folder)) };
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
