// The files of a topics folder, read for collectTopicDefinitions: a link is followed (the editor
// follows it too), and each file is read as spot documents are (strict UTF-8, a size cap). A file
// that cannot be read is a problem on that file alone, so the folder's other definitions still
// apply; a few files are read at a time, so a folder of thousands never runs out of descriptors.
import { lstat, readlink, stat } from 'node:fs/promises';
import { readDefinitionText } from '../documents/readDocument';
import { l10n } from '../text/l10n';
import { TOPIC_RULES, type TopicProblem } from './topicProblem';

/** A definition file's text, or the problem that kept it from being read. */
export type TopicFileInput = { path: string; text: string } | { path: string; problem: TopicProblem };

const READ_AT_ONCE = 8;

/** The files at `paths`, in that order. */
export async function readTopicFiles(paths: readonly string[]): Promise<TopicFileInput[]> {
  const read: TopicFileInput[] = new Array<TopicFileInput>(paths.length);
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const index = next++;
      read[index] = await readTopicFile(paths[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_AT_ONCE, paths.length) }, worker));
  return read;
}

async function readTopicFile(path: string): Promise<TopicFileInput> {
  try {
    // stat follows a link; only a regular file is opened (a named pipe would wait for a writer).
    if (!(await stat(path)).isFile()) throw new Error(l10n.t('it is not a file'));
    return { path, text: await readDefinitionText(path) };
  } catch (error) {
    return unreadableTopicFile(path, await whyUnreadable(path, error as NodeJS.ErrnoException));
  }
}

/** A definition file that could not be read, and why: a problem on that file alone (the command line's and the editor's). */
export function unreadableTopicFile(path: string, why: string): TopicFileInput {
  const problem: TopicProblem = {
    pointer: '',
    message: l10n.t('Could not read the file: {0}', why),
    offset: 0,
    length: 0,
    severity: 'error',
    rule: TOPIC_RULES.definitionUnreadable,
  };
  return { path, problem };
}

/** A link to nothing, or in a loop, said as such: the system's "no such file" names a file that is there. */
async function whyUnreadable(path: string, error: NodeJS.ErrnoException): Promise<string> {
  if (error.code === 'ELOOP') return l10n.t('it is a link in a loop of links');
  if (error.code === 'ENOENT' && (await lstat(path).catch(() => undefined))?.isSymbolicLink()) {
    const target = await readlink(path).catch(() => '?');
    return l10n.t('it is a link to {0}, which does not exist', target);
  }
  return error.message;
}
