// spot-import upload --gallery <id> <file>…: every file checked first as import checks media (a
// file, not empty, a type the gallery accepts: "media.acceptedTypes" of spot-import.json), then
// streamed into the gallery through the core's one upload policy (uploadFilesToGallery): one at a
// time, never sent twice blindly, the run stopped when the next file would fail the same way.
// The first Ctrl-C lets the file in flight finish; the second aborts it.
import { basename, resolve } from 'node:path';
import { checkMediaFile, runStopCause, type UploadedFile, type UploadFailure, uploadFilesToGallery } from '../../core';
import { displayPath } from '../documents/collectDocuments';
import { connect, type Connection } from '../connect';
import { CliError, EXIT } from '../exit';
import type { OutputFormat } from '../output/reporter';
import type { Outcome, RunSummary } from '../output/records';
import { createProgress } from '../progress';
import { checkCredentials } from '../serviceFailure';
import { resolveSettings, type ConnectionFlags } from '../settings/resolveSettings';
import { watchInterrupts } from '../interrupt';
import { RunOutput, type CliContext } from '../context';

export interface UploadOptions extends ConnectionFlags {
  format: OutputFormat;
  gallery: number;
}

interface CheckedFile {
  path: string;
  name: string;
  size: number;
  mimeType: string;
}

export async function runUpload(files: string[], options: UploadOptions, context: CliContext): Promise<number> {
  const settings = await resolveSettings(options, context.env, context.cwd);
  const checked = await checkFiles(files, context.cwd, settings.media.acceptedTypes);
  const interrupts = watchInterrupts(context.stderr);
  const progress = createProgress('files', context.stderr, context.env);
  let connection: Connection | undefined;
  try {
    connection = await connect(settings, { secretFromStdin: !!options.clientSecretStdin, env: context.env });
    await checkCredentials(connection.tokens, interrupts.stop);
    const output = new RunOutput(context, 'upload', options.format, progress);
    const totalBytes = checked.reduce((sum, file) => sum + file.size, 0);
    let sentBefore = 0;
    const run = await uploadFilesToGallery({
      client: connection.client,
      galleryId: options.gallery,
      files: checked,
      signal: interrupts.stop,
      abortSignal: interrupts.abort,
      onBytes: (file, sent) => progress.update({ done: checked.indexOf(file), total: checked.length, bytes: sentBefore + sent, totalBytes }),
      onFile: (result) => {
        sentBefore += result.file.size;
        if (result.status !== 'not-sent' || result.failure) output.outcome(toOutcome(result, options.gallery, context.cwd));
      },
    });
    // Files the run never reached: it stopped first.
    for (const result of run.files) if (result.attempts === 0) output.outcome(notAttempted(result.file, options.gallery, context.cwd, run.stop));
    progress.stop();
    const uploaded = output.count('uploaded');
    const left = output.total - uploaded;
    const [message, code, stopped] = conclude(run.stop, uploaded, output.total, left, options.gallery);
    return output.finish(message, code, stopped);
  } finally {
    progress.stop();
    interrupts.dispose();
    await connection?.close();
  }
}

function conclude(stop: UploadFailure | undefined, uploaded: number, total: number, left: number, galleryId: number): [string, number, RunSummary['stopped']?] {
  if (stop?.kind === 'cancelled')
    return [
      `Interrupted: ${uploaded} of ${total} files uploaded to gallery ${galleryId}; the other ${left} were not (see above).`,
      EXIT.interrupted,
      'interrupted',
    ];
  if (stop?.kind === 'credentials') return [`Stopped: ${stop.error.message} ${uploaded} of ${total} files uploaded.`, EXIT.usage, 'credentialsRejected'];
  if (left > 0) return [`${uploaded} of ${total} files uploaded to gallery ${galleryId}, ${left} not.`, EXIT.failures];
  return [`${uploaded} file${uploaded === 1 ? '' : 's'} uploaded to gallery ${galleryId}.`, EXIT.ok];
}

function details(file: CheckedFile, galleryId: number): NonNullable<Outcome['upload']> {
  return { galleryId, fileName: file.name, mimeType: file.mimeType, bytes: file.size };
}

function toOutcome(result: UploadedFile<CheckedFile>, galleryId: number, cwd: string): Outcome {
  const file = displayPath(result.file.path, cwd);
  const upload = details(result.file, galleryId);
  if (result.status === 'arrived')
    return { file, status: 'uploaded', ok: true, findings: [], upload: { ...upload, ...(result.mediaId !== undefined ? { mediaId: result.mediaId } : {}) } };
  const failure = result.failure!;
  const unsure = result.status === 'unsure' ? ': it may have arrived, so check the gallery before sending it again' : '';
  if (failure.kind === 'cancelled') {
    const reason = unsure ? `aborted after it was sent${unsure}` : 'aborted while it was being sent: nothing of it was stored';
    return { file, status: 'notAttempted', ok: false, reason, findings: [], upload };
  }
  return { file, status: 'failed', ok: false, reason: `${failure.error.message.replace(/\.$/, '')}${unsure}`, failure: 'service', findings: [], upload };
}

function notAttempted(checked: CheckedFile, galleryId: number, cwd: string, stop: UploadFailure | undefined): Outcome {
  const reason =
    stop?.kind === 'cancelled' || stop?.kind === 'credentials'
      ? runStopCause(stop.kind)
      : `the run stopped after the failure above (${stop?.error.message.replace(/\.$/, '') ?? 'unknown'})`;
  return { file: displayPath(checked.path, cwd), status: 'notAttempted', ok: false, reason, findings: [], upload: details(checked, galleryId) };
}

/**
 * Every file must be fit for a gallery before the first byte is sent (the rule import applies to
 * media: checkMediaFile): one line per one that is not, and nothing is uploaded.
 */
async function checkFiles(files: string[], cwd: string, acceptedTypes: readonly string[] | undefined): Promise<CheckedFile[]> {
  const problems: string[] = [];
  const checked: CheckedFile[] = [];
  for (const given of files) {
    const path = resolve(cwd, given);
    const name = basename(path);
    const verdict = await checkMediaFile(path, name, acceptedTypes);
    if (verdict.ok) checked.push({ path, name, size: verdict.stats.size, mimeType: verdict.mimeType });
    else if (verdict.code === 'missing') problems.push(`"${given}" does not exist.`);
    else if (verdict.code === 'not-a-file') problems.push(`"${given}" is not a file: upload takes media files, one or more.`);
    else problems.push(`"${given}": ${verdict.problem}`);
  }
  if (problems.length > 0) throw new CliError(`${problems.join('\n')}\nNothing was uploaded.`);
  return checked;
}
