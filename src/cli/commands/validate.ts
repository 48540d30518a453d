// spot-import validate <path>…: every document checked as the editor checks it, plus the media of
// each valid document (the media workflow's pre-flight check). Sends nothing, needs no account.
import { describeProblems } from '../../core';
import { checkDocumentFile } from '../documents/checkDocument';
import { collectDocuments, displayPath } from '../documents/collectDocuments';
import { EXIT } from '../exit';
import { checkDocumentMedia } from '../import/mediaPlugin';
import type { OutputFormat } from '../output/reporter';
import { createProgress } from '../progress';
import { resolveSettings, type ConnectionFlags } from '../settings/resolveSettings';
import { RunOutput, type CliContext } from '../context';

export interface ValidateOptions extends Pick<ConnectionFlags, 'topic' | 'config'> {
  format: OutputFormat;
}

export async function runValidate(paths: string[], options: ValidateOptions, context: CliContext): Promise<number> {
  const settings = await resolveSettings({ topic: options.topic, config: options.config }, context.env, context.cwd);
  const progress = createProgress('documents', context.stderr, context.env);
  const { files, unreadable } = await collectDocuments(paths, context.cwd, progress.note);
  const output = new RunOutput(context, 'validate', options.format);
  for (const outcome of unreadable) output.outcome({ ...outcome, status: 'invalid' });
  let bytes = 0;
  for (const [index, path] of files.entries()) {
    const file = displayPath(path, context.cwd);
    const checked = await checkDocumentFile(path, settings.topic?.value);
    bytes += checked.text ? Buffer.byteLength(checked.text) : 0;
    if (!checked.ok) {
      output.outcome({ file, status: 'invalid', ok: false, reason: checked.reason, failure: checked.text === undefined ? 'unreadable' : 'document', findings: checked.findings });
    } else {
      const media = (await checkDocumentMedia(path, checked.document)).map((problem) => ({ message: `${displayPath(problem.path, context.cwd)}: ${problem.message}` }));
      output.outcome(media.length === 0 ? { file, status: 'valid', ok: true, findings: [] } : { file, status: 'invalid', ok: false, reason: describeProblems(media), failure: 'document', findings: [] });
    }
    progress.update({ done: index + 1, total: files.length, bytes });
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
