// spot-import upload --gallery <id> <file>…: streams each file into the gallery with the core's
// uploadMedia, one at a time (uploads into one gallery go one by one, so each adds exactly one
// media item). An upload is never sent twice blindly: a file that failed is reported, not retried.
// The first Ctrl-C lets the file in flight finish; the second aborts it.
import { promises as fs } from 'node:fs';
import { basename, resolve } from 'node:path';
import { mimeTypeOf as lookup } from '../../core/files/mimeType';
import { AuthenticationError, ServiceError, isCancellation } from '../../core';
import { displayPath } from '../documents/collectDocuments';
import { connect, type Connection } from '../connect';
import { CliError, EXIT } from '../exit';
import type { OutputFormat } from '../output/reporter';
import type { Outcome } from '../output/records';
import { createProgress } from '../progress';
import { checkCredentials } from '../serviceFailure';
import { resolveSettings, type ConnectionFlags } from '../settings/resolveSettings';
import { watchInterrupts } from '../interrupt';
import { RunOutput, type CliContext } from '../context';

export interface UploadOptions extends ConnectionFlags {
  format: OutputFormat;
  gallery: number;
}

export async function runUpload(files: string[], options: UploadOptions, context: CliContext): Promise<number> {
  const settings = await resolveSettings(options, context.env, context.cwd);
  const sized = await checkFiles(files, context.cwd);
  const interrupts = watchInterrupts(context.stderr);
  const progress = createProgress('files', context.stderr, context.env);
  let connection: Connection | undefined;
  try {
    connection = await connect(settings, { secretFromStdin: !!options.clientSecretStdin, env: context.env });
    await checkCredentials(connection.tokens, interrupts.stop);
    const output = new RunOutput(context, 'upload', options.format, progress);
    const totalBytes = sized.reduce((sum, file) => sum + file.bytes, 0);
    let sentBefore = 0;
    let stopped: 'interrupted' | 'credentialsRejected' | undefined;
    let stopMessage = '';
    for (const [index, { path, bytes }] of sized.entries()) {
      const file = displayPath(path, context.cwd);
      const details = { galleryId: options.gallery, fileName: basename(path), mimeType: lookup(path) || 'application/octet-stream', bytes };
      if (stopped || interrupts.stop.aborted) {
        stopped ??= 'interrupted';
        output.outcome({ file, status: 'notAttempted', ok: false, reason: stopped === 'interrupted' ? 'the run was interrupted first' : 'the run stopped because the credentials were rejected', findings: [], upload: details });
        continue;
      }
      const state = (sent: number) => progress.update({ done: index, total: sized.length, bytes: sentBefore + sent, totalBytes });
      let outcome: Outcome;
      try {
        const result = await connection.client.uploadMedia(options.gallery, path, { signal: interrupts.abort, onProgress: state });
        outcome = { file, status: 'uploaded', ok: true, findings: [], upload: { ...details, fileName: result.fileName, mimeType: result.mimeType, bytes: result.bytes, ...mediaId(result.reply) } };
      } catch (error) {
        if (!(error instanceof ServiceError) && !isCancellation(error)) throw error;
        if (isCancellation(error)) {
          stopped = 'interrupted';
          outcome = { file, status: 'notAttempted', ok: false, reason: 'aborted while it was being sent: check the gallery before sending it again (part of it may have arrived)', findings: [], upload: details };
        } else {
          if (error instanceof AuthenticationError) {
            stopped = 'credentialsRejected';
            stopMessage = error.message;
          }
          outcome = { file, status: 'failed', ok: false, reason: (error as ServiceError).message, failure: 'service', findings: [], upload: details };
        }
      }
      sentBefore += bytes;
      output.outcome(outcome);
      state(0);
    }
    progress.stop();
    const uploaded = output.count('uploaded');
    const left = output.total - uploaded;
    if (stopped === 'interrupted') return output.finish(`Interrupted: ${uploaded} of ${output.total} files uploaded to gallery ${options.gallery}; the other ${left} were not (see above).`, EXIT.interrupted, 'interrupted');
    if (stopped === 'credentialsRejected') return output.finish(`Stopped: ${stopMessage} ${uploaded} of ${output.total} files uploaded.`, EXIT.usage, 'credentialsRejected');
    if (left > 0) return output.finish(`${uploaded} of ${output.total} files uploaded to gallery ${options.gallery}, ${left} not.`, EXIT.failures);
    return output.finish(`${uploaded} file${uploaded === 1 ? '' : 's'} uploaded to gallery ${options.gallery}.`, EXIT.ok);
  } finally {
    progress.stop();
    interrupts.dispose();
    await connection?.close();
  }
}

/** Every file must exist and be a file before the first byte is sent: one line per one that is not. */
async function checkFiles(files: string[], cwd: string): Promise<Array<{ path: string; bytes: number }>> {
  const problems: string[] = [];
  const checked: Array<{ path: string; bytes: number }> = [];
  for (const given of files) {
    const path = resolve(cwd, given);
    const stats = await fs.stat(path).catch((error: NodeJS.ErrnoException) => error);
    if (stats instanceof Error) problems.push(stats.code === 'ENOENT' ? `"${given}" does not exist.` : `"${given}" cannot be read: ${stats.message}`);
    else if (!stats.isFile()) problems.push(`"${given}" is not a file: upload takes media files, one or more.`);
    else checked.push({ path, bytes: stats.size });
  }
  if (problems.length > 0) throw new CliError(`${problems.join('\n')}\nNothing was uploaded.`);
  return checked;
}

/** The media id, when the service's reply names one ({data: {id}} as JSON:API replies do). */
function mediaId(reply: unknown): { mediaId?: number } {
  const id = (reply as { data?: { id?: unknown } } | null)?.data?.id;
  const number = typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id;
  return typeof number === 'number' && Number.isSafeInteger(number) ? { mediaId: number } : {};
}
