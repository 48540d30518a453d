// spot-import import <path>…: finds the documents, checks the credentials once, hands the work
// to the import runner (documents only for now; the media workflow plugs in via mediaPlugin.ts),
// streams each outcome, and ends with one line that says what a second run would finish.
import { join } from 'node:path';
import { collectDocuments, displayPath } from '../documents/collectDocuments';
import { connect, type Connection } from '../connect';
import { EXIT } from '../exit';
import { selectImportRunner } from '../import/mediaPlugin';
import type { ImportJob, ImportRunEnd } from '../import/importRunner';
import type { OutputFormat } from '../output/reporter';
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

/** Where runners keep their journals: in the folder the command runs in, like .git or node_modules/.cache. */
export const JOURNAL_DIR = '.spot-import';

export async function runImport(paths: string[], options: ImportOptions, context: CliContext): Promise<number> {
  const settings = await resolveSettings(options, context.env, context.cwd);
  const interrupts = watchInterrupts(context.stderr);
  const progress = createProgress('documents', context.stderr, context.env);
  let connection: Connection | undefined;
  try {
    const { files, unreadable } = await collectDocuments(paths, context.cwd, progress.note, interrupts.stop);
    if (!options.dryRun) {
      connection = await connect(settings, { secretFromStdin: !!options.clientSecretStdin, env: context.env });
      await checkCredentials(connection.tokens, interrupts.stop);
    }
    const output = new RunOutput(context, 'import', options.format);
    for (const outcome of unreadable) output.outcome(outcome);
    const job: ImportJob = {
      files,
      display: (path) => displayPath(path, context.cwd),
      client: connection?.client,
      concurrency: settings.concurrency.value,
      topic: settings.topic?.value,
      dryRun: !!options.dryRun,
      media: { upload: options.media, writeBack: options.writeBack, keepInProgress: !!options.keepInProgress, settings: settings.media },
      journalDir: join(context.cwd, JOURNAL_DIR),
      target: connection ? { service: connection.serviceKey, apiVersion: connection.apiVersion, clientId: connection.clientId } : { service: '', apiVersion: '', clientId: '' },
      signals: { stop: interrupts.stop, abort: interrupts.abort },
      report: (outcome) => output.outcome(outcome),
      progress: ({ done, bytes }) => progress.update({ done, total: files.length, bytes }),
      note: progress.note,
    };
    const end = await selectImportRunner(job)(job);
    progress.stop();
    const failedBeforeRun = unreadable.length;
    return output.finish(...conclude(output, end, failedBeforeRun, !!options.dryRun, context.cwd));
  } finally {
    progress.stop();
    interrupts.dispose();
    await connection?.close();
  }
}

function conclude(output: RunOutput, end: ImportRunEnd, failedBeforeRun: number, dryRun: boolean, cwd: string): [string, number, ('interrupted' | 'credentialsRejected')?] {
  const imported = output.count('imported') + output.count('alreadyImported');
  const total = output.total;
  const failed = output.count('failed');
  const remaining = end.remaining + failedBeforeRun;
  const journal = end.journal ? ` ${end.journal.recorded} imported document(s) are recorded in ${displayPath(end.journal.file, cwd)}; a second run does not send them again.` : '';
  if (end.stopped === 'interrupted') {
    return [`Interrupted: ${imported} of ${total} documents imported. Run the same command again to finish the other ${remaining}.${journal}`, EXIT.interrupted, 'interrupted'];
  }
  if (end.stopped === 'credentialsRejected') {
    return [`Stopped: ${end.stopError?.message ?? 'the credentials were rejected.'} ${imported} of ${total} documents imported; after fixing the credentials, run the same command again to finish the other ${remaining}.${journal}`, EXIT.usage, 'credentialsRejected'];
  }
  if (dryRun) {
    const valid = output.count('wouldImport');
    return [`Dry run: ${valid} of ${total} documents would be imported${failed ? `, ${failed} would not` : ''}; nothing was sent.`, failed ? EXIT.failures : EXIT.ok];
  }
  if (failed > 0) {
    return [`${imported} of ${total} documents imported, ${failed} not imported. Fix them and run the same command again.${journal}`, EXIT.failures];
  }
  return [`${imported} of ${total} documents imported.`, EXIT.ok];
}
