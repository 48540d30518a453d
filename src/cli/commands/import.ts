// spot-import import <path>…: finds the documents, loads the project's topic definitions, checks
// the credentials once, hands the work to the import runner (the media workflow, see
// mediaPlugin.ts), streams each outcome, and ends with one line that says what a second run
// would finish.
import { defaultJournalDir } from '../../core';
import { projectTopics } from '../documents/projectTopics';
import { collectDocuments, displayPath } from '../documents/collectDocuments';
import { connect, type Connection } from '../connect';
import { EXIT } from '../exit';
import { selectImportRunner } from '../import/mediaPlugin';
import type { ImportJob, ImportRunEnd } from '../import/importRunner';
import type { OutputFormat } from '../output/reporter';
import type { RunSummary } from '../output/records';
import { createProgress } from '../progress';
import { checkCredentials } from '../serviceFailure';
import { resolveSettings, type ConnectionFlags } from '../settings/resolveSettings';
import { watchInterrupts } from '../interrupt';
import { RunOutput, type CliContext } from '../context';

export interface ImportOptions extends ConnectionFlags {
  format: OutputFormat;
  media: boolean;
  writeBack: boolean;
  keepInProgress?: boolean;
  dryRun?: boolean;
}

export async function runImport(paths: string[], options: ImportOptions, context: CliContext): Promise<number> {
  const settings = await resolveSettings(options, context.env, context.cwd);
  const interrupts = watchInterrupts(context.stderr);
  const progress = createProgress('documents', context.stderr, context.env);
  let connection: Connection | undefined;
  try {
    const display = (path: string) => displayPath(path, context.cwd);
    const topics = await projectTopics(settings, context.cwd, display);
    const { files, withoutMediaFolder, unreadable } = await collectDocuments(paths, context.cwd, progress.note, topics, interrupts.stop);
    if (!options.dryRun) {
      connection = await connect(settings, { secretFromStdin: !!options.clientSecretStdin, env: context.env });
      await checkCredentials(connection.tokens, interrupts.stop);
    }
    const output = new RunOutput(context, 'import', options.format, progress);
    for (const outcome of [...topics.outcomes, ...unreadable]) output.outcome(outcome);
    const job: ImportJob = {
      files,
      withoutMediaFolder,
      display,
      client: connection?.client,
      concurrency: settings.concurrency.value,
      rules: { topic: settings.topic?.value, topics: topics.catalog, acceptedTypes: settings.media.acceptedTypes },
      dryRun: !!options.dryRun,
      media: { upload: options.media, writeBack: options.writeBack, keepInProgress: !!options.keepInProgress, acceptedTypes: settings.media.acceptedTypes },
      // In the folder the command runs in, like .git or node_modules/.cache; it ignores itself in git.
      journalDir: defaultJournalDir(context.cwd),
      target: connection ? { service: connection.serviceKey, apiVersion: connection.apiVersion, clientId: connection.clientId } : { service: '', apiVersion: '', clientId: '' },
      signals: { stop: interrupts.stop, abort: interrupts.abort },
      report: (outcome) => output.outcome(outcome),
      progress: ({ done, bytes }) => progress.update({ done, total: files.length, bytes }),
      note: progress.note,
    };
    const end = await selectImportRunner(job)(job);
    progress.stop();
    const failedBeforeRun = unreadable.length + topics.outcomes.filter((outcome) => !outcome.ok).length;
    return output.finish(...conclude(output, end, failedBeforeRun, !!options.dryRun, files.length + unreadable.length));
  } finally {
    progress.stop();
    interrupts.dispose();
    await connection?.close();
  }
}

function conclude(output: RunOutput, end: ImportRunEnd, failedBeforeRun: number, dryRun: boolean, documents: number): [string, number, RunSummary['stopped']?] {
  const imported = output.count('imported') + output.count('alreadyImported');
  const total = documents;
  const failed = output.count('failed');
  const definitions = output.count('invalid');
  const remaining = end.remaining + failedBeforeRun;
  const broken = definitions > 0 ? ` ${definitions} topic definition file(s) are broken (reported above; their topics were checked by the base rules only).` : '';
  switch (end.stopped) {
    case 'cancelled':
      return [`Interrupted: ${imported} of ${total} documents imported. Run the same command again to finish the other ${remaining - definitions}: the journal in .spot-import/ keeps what was done, so nothing is sent twice.`, EXIT.interrupted, 'interrupted'];
    case 'credentials':
      return [`Stopped: ${end.stopError?.message ?? 'the credentials were rejected.'} ${imported} of ${total} documents imported; after fixing the credentials, run the same command again to finish the other ${remaining - definitions}.`, EXIT.usage, 'credentialsRejected'];
    case 'network':
      return [`Stopped: the service could not be reached (${end.stopError?.message ?? 'no connection'}). ${imported} of ${total} documents imported; once it can be reached, run the same command again to finish the other ${remaining - definitions}.`, EXIT.failures, 'serviceUnreachable'];
  }
  if (dryRun) {
    const valid = output.count('wouldImport');
    return [`Dry run: ${valid} of ${total} documents would be imported${failed ? `, ${failed} would not` : ''}; nothing was sent.${broken}`, failed || definitions ? EXIT.failures : EXIT.ok];
  }
  if (failed > 0) {
    return [`${imported} of ${total} documents imported, ${failed} not imported. Fix them and run the same command again: what was done is not sent again.${broken}`, EXIT.failures];
  }
  return [`${imported} of ${total} documents imported.${broken}`, definitions ? EXIT.failures : EXIT.ok];
}
