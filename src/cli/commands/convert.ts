// spot-import convert <source> --out DIR: what the rows of a table stand for, written as ordinary
// spot documents a team can commit: DIR/<source_id made file-safe>.spot.json, each with its
// photos copied beside it by the media folder convention (<name>.media/<field>/NN-<file name>, so
// name order is the cells' order). `import DIR` then imports the same spots. A row with problems
// is reported at its cell and not written; a document already there with other content is left as
// it is unless --force (it may hold the gallery ids an import wrote back).
import { createWriteStream, promises as fs } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { checkRows, cellNamer, type RowSpot } from '../../core/rows';
import { photoFetcher, topicRulesOf } from '../import/runOptions';
import { FetchError, type PhotoFetcher } from '../../core/media/remote/photoFetcher';
import { fetchedFileName } from '../../core/media/remote/photoAddress';
import type { MediaFileEntry } from '../../core';
import { defaultJournalDir } from '../../core';
import { projectFolder } from '../projectFolder';
import { displayPath } from '../documents/collectDocuments';
import { projectTopics, unusedTopicsNote } from '../documents/projectTopics';
import { EXIT } from '../exit';
import type { OutputFormat } from '../output/reporter';
import { openRows, requireTable } from '../rows/openRows';
import { rowFindings, rowPlace, rowReason } from '../rows/rowFindings';
import { createProgress } from '../progress';
import { watchInterrupts } from '../interrupt';
import { resolveSettings, type ConnectionFlags } from '../settings/resolveSettings';
import { RunOutput, type CliContext } from '../context';

export interface ConvertOptions extends Pick<ConnectionFlags, 'config' | 'topicsFolder' | 'topic'> {
  out: string;
  mapping?: string;
  force?: boolean;
  format: OutputFormat;
  /** --photo-login: environment variables the mapping may send as photo logins. */
  photoLogin?: string[];
}

export async function runConvert(source: string, options: ConvertOptions, context: CliContext): Promise<number> {
  const path = resolve(context.cwd, source);
  await requireTable(source, context.cwd, false);
  const settings = await resolveSettings({ config: options.config, topicsFolder: options.topicsFolder, topic: options.topic }, context.env, context.cwd);
  const progress = createProgress('rows', context.stderr, context.env);
  const interrupts = watchInterrupts(context.stderr);
  try {
    const display = (file: string) => displayPath(file, context.cwd);
    const topics = await projectTopics(settings, context.cwd, display, [path]);
    if (topics.unused) progress.note(unusedTopicsNote(topics.unused, display));
    const opened = await openRows(path, {
      mapping: options.mapping && resolve(context.cwd, options.mapping),
      topics: topics.catalog,
      display,
      note: progress.note,
    });
    const output = new RunOutput(context, 'validate', options.format, progress);
    for (const outcome of [...topics.outcomes, ...(opened.mappingOutcome ? [opened.mappingOutcome] : [])]) output.outcome(outcome);
    if (!opened.mapping) return await output.finish(`${display(opened.mappingPath)} has problems (above): nothing was written.`, EXIT.failures);
    const out = resolve(context.cwd, options.out);
    await fs.mkdir(out, { recursive: true });
    const names = new Set<string>();
    const file = display(path);
    let written = 0;
    let failed = 0;
    const rules = {
      ...topicRulesOf({ topic: settings.topic?.value, topics: topics.catalog, acceptedTypes: settings.media.acceptedTypes }),
      acceptedTypes: settings.media.acceptedTypes,
    };
    // Photos given by web address are fetched as the import fetches them, into the same cache.
    const fetcher = photoFetcher(
      {
        journalDir: defaultJournalDir(await projectFolder(context.cwd, settings.configFile)),
        refresh: false,
        acceptedTypes: settings.media.acceptedTypes,
        photoLogins: options.photoLogin ?? [],
      },
      opened.mapping,
    );
    const nameCell = cellNamer(opened.table.format);
    for await (const checked of checkRows(opened.table, opened.mapping, rules, interrupts.stop)) {
      const findings = rowFindings(
        checked.findings.map((finding) => ({ ...finding, at: finding })),
        display,
        nameCell,
      );
      const row = checked.row !== undefined ? { row: rowPlace({ row: checked.row, line: checked.line }, nameCell) } : {};
      if (!checked.ok || !checked.spot) {
        failed++;
        output.outcome({ file, ...row, status: 'invalid', ok: false, reason: rowReason(findings), failure: 'document', findings });
        continue;
      }
      const target = join(out, `${uniqueName(fileSafe(checked.sourceId ?? `row-${checked.row}`), names)}.spot.json`);
      const problem = await writeSpot(checked.spot, target, !!options.force, fetcher, interrupts.stop);
      if (problem) {
        failed++;
        output.outcome({ file, ...row, status: 'invalid', ok: false, reason: problem, failure: 'document', findings });
      } else {
        written++;
        output.outcome({ file, ...row, status: 'valid', ok: true, findings });
      }
    }
    progress.stop();
    if (interrupts.stop.aborted) return await output.finish(`Interrupted: ${written} documents written to ${display(out)}.`, EXIT.interrupted, 'interrupted');
    return await output.finish(
      `${written} spot document${written === 1 ? '' : 's'} written to ${display(out)}${failed ? `; ${failed} row${failed === 1 ? '' : 's'} not (see above)` : ''}.` +
        (written > 0 ? ` Import them with: spot-import import ${display(out)}` : ''),
      failed ? EXIT.failures : EXIT.ok,
    );
  } finally {
    progress.stop();
    interrupts.dispose();
  }
}

/** The document and its photos, by the media folder convention; a reason when it was not written. */
async function writeSpot(spot: RowSpot, target: string, force: boolean, fetcher: PhotoFetcher, signal: AbortSignal): Promise<string | undefined> {
  const existing = await fs.readFile(target, 'utf8').catch(() => undefined);
  if (existing !== undefined && existing !== spot.text && !force) {
    return `${basename(target)} exists with other content (an import may have written gallery ids into it): left as it is (--force writes over it).`;
  }
  // Photos given by web address are fetched first: a row whose photo cannot be had writes nothing.
  const fetched = new Map<MediaFileEntry, { path: string; type: string }>();
  for (const entry of (spot.media?.groups ?? []).flatMap((group) => group.files)) {
    if (!entry.remote) continue;
    try {
      fetched.set(entry, await fetcher.fetch(entry.remote.url, signal));
    } catch (error) {
      if (error instanceof FetchError) return error.message;
      throw error;
    }
  }
  await fs.writeFile(target, spot.text);
  const media = target.replace(/\.spot\.json$/, '.media');
  for (const group of spot.media?.groups ?? []) {
    const folder = join(media, group.folder!);
    await fs.mkdir(folder, { recursive: true });
    const width = String(group.files.length).length < 2 ? 2 : String(group.files.length).length;
    for (const [index, entry] of group.files.entries()) {
      const prefix = `${String(index + 1).padStart(width, '0')}-`;
      const download = fetched.get(entry);
      // A photo inside the table's archive is unpacked into the document's media folder, one fetched copied from the cache.
      if (download) await fs.copyFile(download.path, join(folder, `${prefix}${fetchedFileName(entry.name, download.type)}`));
      else if (entry.packed) await pipeline(await entry.packed.open(), createWriteStream(join(folder, `${prefix}${entry.name}`)));
      else await fs.copyFile(entry.path, join(folder, `${prefix}${entry.name}`));
    }
  }
  return undefined;
}

/** A source_id as a file name: letters, digits, dot, dash and underscore; the rest as '_'. */
function fileSafe(sourceId: string): string {
  const name = sourceId
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 120);
  return name || 'spot';
}

/** Two source ids that come out as one name get -2, -3, … */
function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${name}-${n}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}
