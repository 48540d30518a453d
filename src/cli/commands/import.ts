// spot-import import <path>…: finds the documents (or opens the one table named, with its
// mapping), loads the project's topic definitions, checks the credentials once, hands the work to
// the import runner (the engine over documents or rows: src/cli/import/), streams each outcome, and ends with
// one line that says what a second run would finish.
import { defaultJournalDir, JournalAccounts } from '../../core';
import { projectTopics, unusedTopicsNote } from '../documents/projectTopics';
import { collectDocuments, displayPath } from '../documents/collectDocuments';
import { connect, type Connection } from '../connect';
import { resolve } from 'node:path';
import { projectFolder } from '../projectFolder';
import { CliError, EXIT } from '../exit';
import { namedTables, openRows, refuseUnreadable } from '../rows/openRows';
import { supportedTables } from '../../core/rows';
import { distinctTables } from '../rows/distinctTables';
import { importRows } from '../import/rowsRunner';
import { importWithWorkflow } from '../import/workflowRunner';
import type { ImportJob, ImportRunEnd } from '../import/importRunner';
import type { OutputFormat } from '../output/reporter';
import type { RunSummary } from '../output/records';
import { createProgress } from '../progress';
import { noTokenError } from '../serviceFailure';
import { FirstTokenGate } from '../import/firstTokenGate';
import { resolveSettings, type ConnectionFlags } from '../settings/resolveSettings';
import { watchInterrupts } from '../interrupt';
import { RunOutput, type CliContext } from '../context';

export interface ImportOptions extends ConnectionFlags {
  format: OutputFormat;
  media: boolean;
  writeBack: boolean;
  keepInProgress?: boolean;
  refreshDownloads?: boolean;
  /** --photo-login: environment variables the mapping may send as photo logins. */
  photoLogin?: string[];
  dryRun?: boolean;
  /** The mapping of the table named (default: <table>.mapping.json beside it). */
  mapping?: string;
}

export async function runImport(paths: string[], options: ImportOptions, context: CliContext): Promise<number> {
  const settings = await resolveSettings(options, context.env, context.cwd);
  const interrupts = watchInterrupts(context.stderr);
  // Asked once a path (a .json is told by its first bytes).
  const tablePaths = namedTables(paths, context.cwd, Boolean(options.mapping));
  const progress = createProgress(tablePaths.size > 0 ? 'rows' : 'documents', context.stderr, context.env);
  let connection: Connection | undefined;
  const journalAccounts = new JournalAccounts();
  try {
    const display = (path: string) => displayPath(path, context.cwd);
    const topics = await projectTopics(settings, context.cwd, display, paths);
    if (topics.unused) progress.note(unusedTopicsNote(topics.unused, display));
    await refuseUnreadable(paths, context.cwd, Boolean(options.mapping));
    const named = paths.filter((path) => tablePaths.has(path));
    const tables = distinctTables(named, context.cwd, display, progress.note);
    // One table a run: its rows' source ids are checked against each other before anything is sent (validate checks several tables' across them).
    if (tables.length > 0 && tables.length + paths.length - named.length > 1)
      throw new CliError(`Import one table at a time, or spot documents: name one table alone, ${supportedTables()}.`);
    if (options.mapping && tables.length === 0) throw new CliError(`--mapping names the mapping of a table: name the table with it, ${supportedTables()}.`);
    const opened =
      tables.length > 0
        ? await openRows(resolve(context.cwd, tables[0]), {
            mapping: options.mapping && resolve(context.cwd, options.mapping),
            topics: topics.catalog,
            display,
            note: progress.note,
          })
        : undefined;
    const { files, withoutMediaFolder, unreadable } = opened
      ? { files: [], withoutMediaFolder: [], unreadable: [] }
      : await collectDocuments(paths, context.cwd, progress.note, topics, interrupts.stop);
    if (opened && !opened.mapping) {
      // The mapping has errors: nothing is sent, and no credentials are needed to say so.
      const output = new RunOutput(context, 'import', options.format, progress);
      for (const outcome of [...topics.outcomes, opened.mappingOutcome!]) output.outcome(outcome);
      progress.stop();
      return output.finish(
        `${display(opened.mappingPath)} has problems (above): nothing was imported. Fix them and run the same command again.`,
        EXIT.failures,
      );
    }
    const output = new RunOutput(context, 'import', options.format, progress);
    // No token is asked for before the run: the first request that needs one does (FirstTokenGate).
    const gate = new FirstTokenGate((outcome) => output.outcome(outcome), progress.note);
    if (!options.dryRun)
      connection = await connect(settings, { secretFromStdin: !!options.clientSecretStdin, env: context.env, clientTokens: (tokens) => gate.over(tokens) });
    for (const outcome of [...topics.outcomes, ...unreadable, ...(opened?.mappingOutcome ? [opened.mappingOutcome] : [])]) output.outcome(outcome);
    const job: ImportJob = {
      files,
      ...(opened?.mapping ? { rows: { table: opened.table, mapping: opened.mapping } } : {}),
      withoutMediaFolder,
      display,
      client: connection?.client,
      concurrency: settings.concurrency.value,
      rules: { topic: settings.topic?.value, topics: topics.catalog, acceptedTypes: settings.media.acceptedTypes },
      dryRun: !!options.dryRun,
      media: {
        upload: options.media,
        writeBack: options.writeBack,
        keepInProgress: !!options.keepInProgress,
        refreshDownloads: !!options.refreshDownloads,
        photoLogins: options.photoLogin ?? [],
        acceptedTypes: settings.media.acceptedTypes,
      },
      // In the project's folder, however deep in it the command runs; it ignores itself in git.
      journalDir: defaultJournalDir(await projectFolder(context.cwd, settings.configFile)),
      journalAccounts,
      target: connection
        ? { service: connection.serviceKey, apiVersion: connection.apiVersion, clientId: connection.clientId }
        : { service: '', apiVersion: '', clientId: '' },
      // A first token that cannot be had stops the run as Ctrl-C does: nothing is sent.
      signals: { stop: AbortSignal.any([interrupts.stop, gate.signal]), abort: interrupts.abort },
      report: (outcome) => gate.outcome(outcome),
      // A table's rows are read as they are imported: their number is not known before the end.
      progress: ({ done, bytes }) => progress.update({ done, total: opened ? undefined : files.length, bytes }),
      note: (line) => gate.note(line),
    };
    // The engine over the rows of the table, or over the documents.
    const end = await (job.rows ? importRows : importWithWorkflow)(job);
    progress.stop();
    if (gate.refusal !== undefined) throw noTokenError(gate.refusal, 'Nothing was sent. ');
    const failedBeforeRun = unreadable.length + topics.outcomes.filter((outcome) => !outcome.ok).length;
    const counting = opened ? rowCounting(display(opened.table.path)) : documentCounting(output, end, failedBeforeRun, files.length + unreadable.length);
    return output.finish(...conclude(output, end, !!options.dryRun, counting));
  } finally {
    progress.stop();
    interrupts.dispose();
    journalAccounts.dispose();
    await connection?.close();
  }
}

/**
 * How a run's end is counted: in documents (their number known before the run) or in a table's
 * rows (read as they are imported, so counted as they came). One wording of each end for both.
 */
interface RunCounting {
  /** "3 of 10 documents", "3 rows of trees.csv": what was imported. */
  imported(count: number): string;
  /** "10 documents", "12 rows of trees.csv": the whole, given how many rows were met. */
  whole(rowsMet: number): string;
  /** What a second run finishes: "the other 7", "the rest". */
  rest: string;
  /** Topic definition files that are broken (documents only: their topics were checked by the base rules). */
  definitions: number;
}

function documentCounting(output: RunOutput, end: ImportRunEnd, failedBeforeRun: number, documents: number): RunCounting {
  const definitions = output.count('invalid');
  return {
    imported: (count) => `${count} of ${documents} documents`,
    whole: () => `${documents} documents`,
    rest: `the other ${end.remaining + failedBeforeRun - definitions}`,
    definitions,
  };
}

function rowCounting(table: string): RunCounting {
  return {
    imported: (count) => `${count} row${count === 1 ? '' : 's'} of ${table}`,
    whole: (count) => `${count} rows of ${table}`,
    rest: 'the rest',
    definitions: 0,
  };
}

/** The run's closing sentence, its exit code, and why it stopped early when it did. */
function conclude(output: RunOutput, end: ImportRunEnd, dryRun: boolean, counting: RunCounting): [string, number, RunSummary['stopped']?] {
  const imported = output.count('imported') + output.count('alreadyImported');
  const failed = output.count('failed');
  const { definitions } = counting;
  const broken =
    definitions > 0 ? ` ${definitions} topic definition file(s) are broken (reported above; their topics were checked by the base rules only).` : '';
  switch (end.stopped) {
    case 'cancelled':
      return [
        `Interrupted: ${counting.imported(imported)} imported. Run the same command again to finish ${counting.rest}: the journal in .spot-import/ keeps what was done, so nothing is sent twice.`,
        EXIT.interrupted,
        'interrupted',
      ];
    case 'credentials':
      return [
        `Stopped: ${end.stopError?.message ?? 'the credentials were rejected.'} ${counting.imported(imported)} imported; after fixing the credentials, run the same command again to finish ${counting.rest}.`,
        EXIT.usage,
        'credentialsRejected',
      ];
    case 'network':
      return [
        `Stopped: the service could not be reached (${end.stopError?.message ?? 'no connection'}). ${counting.imported(imported)} imported; once it can be reached, run the same command again to finish ${counting.rest}.`,
        EXIT.failures,
        'serviceUnreachable',
      ];
  }
  if (dryRun) {
    const valid = output.count('wouldImport');
    return [
      `Dry run: ${valid} of ${counting.whole(valid + failed)} would be imported${failed ? `, ${failed} would not` : ''}; nothing was sent.${broken}`,
      failed || definitions ? EXIT.failures : EXIT.ok,
    ];
  }
  if (failed > 0) {
    return [
      `${imported} of ${counting.whole(imported + failed)} imported, ${failed} not imported. Fix them and run the same command again: what was done is not sent again.${broken}`,
      EXIT.failures,
    ];
  }
  return [`${counting.imported(imported)} imported.${broken}`, definitions ? EXIT.failures : EXIT.ok];
}
