// spot-import mapping <source>: a mapping made from the table's header and first rows, for the
// user to complete: written beside the table (trees.mapping.json) unless it exists, each guess
// said on stderr, so a person knows what to check before the first import.
import { printable } from '../../core/text/printable';
import { promises as fs } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { guessMapping, mappingPathFor, mappingText, previewForMapping, TableReadError } from '../../core/rows';
import { displayPath } from '../documents/collectDocuments';
import { projectTopics } from '../documents/projectTopics';
import { CliError, EXIT } from '../exit';
import { requireTable, tableReadMessage } from '../rows/openRows';
import { resolveSettings, type ConnectionFlags } from '../settings/resolveSettings';
import type { CliContext } from '../context';

export interface MappingOptions extends Pick<ConnectionFlags, 'config' | 'topicsFolder'> {
  out?: string;
  force?: boolean;
}

export async function runMapping(source: string, options: MappingOptions, context: CliContext): Promise<number> {
  const path = resolve(context.cwd, source);
  // A folder is a folder of photos here, whether or not a mapping is beside it yet.
  await requireTable(source, context.cwd, true);
  const settings = await resolveSettings({ config: options.config, topicsFolder: options.topicsFolder }, context.env, context.cwd);
  const display = (file: string) => displayPath(file, context.cwd);
  const topics = await projectTopics(settings, context.cwd, display);
  let preview;
  try {
    preview = await previewForMapping(path);
  } catch (error) {
    if (error instanceof TableReadError) throw new CliError(tableReadMessage(error, display));
    throw new CliError(`${display(path)}: ${(error as Error).message}`);
  }
  const { mapping, notes } = await guessMapping(preview.table, preview.sample, topics.catalog);
  const target = options.out ? resolve(context.cwd, options.out) : mappingPathFor(path);
  try {
    if (options.out) await fs.mkdir(dirname(target), { recursive: true });
    await fs.writeFile(target, mappingText(mapping), { flag: options.force ? 'w' : 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw new CliError(`${display(target)} exists already: it was left as it is (--force writes over it, --out names another file).`);
    throw new CliError(`${display(target)} cannot be written: ${(error as Error).message}`);
  }
  // Headers and file names are the table's: shown, never obeyed, in a terminal (printable.ts).
  for (const note of [...preview.notes, ...notes]) context.stderr.write(`- ${printable(note)}\n`);
  // A mapping not beside its table is found only when named.
  const named = target === mappingPathFor(path) ? '' : ` --mapping ${display(target)}`;
  context.stderr.write(`${printable(`Check the guesses above, complete ${display(target)}, then: spot-import validate ${source}${named}`)}\n`);
  context.stdout.write(`${printable(display(target))}\n`);
  return EXIT.ok;
}
