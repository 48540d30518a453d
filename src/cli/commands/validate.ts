// spot-import validate <path>…: every document checked as the editor checks it, plus the media of
// each valid document (the media workflow's pre-flight check). Sends nothing, needs no account.
import { describeProblems } from '../../core';
import { checkDocumentFile } from '../documents/checkDocument';
import { collectDocuments, displayPath } from '../documents/collectDocuments';
import { EXIT } from '../exit';
import { checkDocumentMedia } from '../import/mediaPlugin';
import type { OutputFormat } from '../output/reporter';
import { createProgress, type Progress } from '../progress';
import { watchInterrupts } from '../interrupt';
import { resolveSettings, type ConnectionFlags } from '../settings/resolveSettings';
import { RunOutput, type CliContext } from '../context';

export interface ValidateOptions extends Pick<ConnectionFlags, 'topic' | 'config'> {
  format: OutputFormat;
}

export async function runValidate(paths: string[], options: ValidateOptions, context: CliContext): Promise<number> {
  const settings = await resolveSettings({ topic: options.topic, config: options.config }, context.env, context.cwd);
  const progress = createProgress('documents', context.stderr, context.env);
  // Ctrl-C: stop after the document at hand, say how far it got (and restore the terminal's cursor).
  const interrupts = watchInterrupts(context.stderr);
  try {
    return await validateAll(paths, options.format, settings.topic?.value, context, progress, interrupts.stop);
  } finally {
    progress.stop();
    interrupts.dispose();
  }
}

async function validateAll(paths: string[], format: OutputFormat, topic: number | undefined, context: CliContext, progress: Progress, stop: AbortSignal): Promise<number> {
  const { files, unreadable } = await collectDocuments(paths, context.cwd, progress.note, stop);
  const output = new RunOutput(context, 'validate', format);
  for (const outcome of unreadable) output.outcome({ ...outcome, status: 'invalid' });
  let bytes = 0;
  for (const [index, path] of files.entries()) {
    if (stop.aborted) {
      progress.stop();
      return output.finish(`Interrupted: ${index} of ${files.length} spot documents checked, ${output.count('invalid')} invalid so far.`, EXIT.interrupted, 'interrupted');
    }
    const file = displayPath(path, context.cwd);
    const checked = await checkDocumentFile(path, topic);
    bytes += checked.text ? Buffer.byteLength(checked.text) : 0;
    if (!checked.ok) {
      output.outcome({ file, status: 'invalid', ok: false, reason: checked.reason, failure: checked.text === undefined ? 'unreadable' : 'document', findings: checked.findings });
    } else {
      const media = (await checkDocumentMedia(path, checked.document)).map((problem) => ({ message: `${displayPath(problem.path, context.cwd)}: ${problem.message}` }));
      output.outcome(media.length === 0 ? { file, status: 'valid', ok: true, findings: [] } : { file, status: 'invalid', ok: false, reason: describeProblems(media), failure: 'document', findings: [] });
    }
    progress.update({ done: index + 1, total: files.length, bytes });
    // Reading is synchronous: give the event loop a turn now and then (Ctrl-C, the bar, stdout).
    if (index % 64 === 63) await new Promise((resolve) => setImmediate(resolve));
  }
  progress.stop();
  const invalid = output.count('invalid');
  const checkedCount = output.total;
  const message =
    invalid === 0
      ? `${checkedCount} spot document${checkedCount === 1 ? '' : 's'} checked: all valid.`
      : `${checkedCount} spot document${checkedCount === 1 ? '' : 's'} checked: ${invalid} invalid, ${output.count('valid')} valid.`;
  return output.finish(message, invalid === 0 ? EXIT.ok : EXIT.failures);
}
