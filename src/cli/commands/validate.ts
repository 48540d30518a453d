// spot-import validate <path>…: every document checked as the editor checks it, against the
// project's topic definitions, with its media folder (the media workflow's pre-flight check).
// Sends nothing, needs no account.
import { SourceIdOwners } from '../../core';
import { checkDocumentFile, claimSourceId, type DocumentRules } from '../documents/checkDocument';
import { collectDocuments, displayPath } from '../documents/collectDocuments';
import { projectTopics, type ProjectTopics } from '../documents/projectTopics';
import { EXIT } from '../exit';
import type { OutputFormat } from '../output/reporter';
import { createProgress, type Progress } from '../progress';
import { watchInterrupts } from '../interrupt';
import { resolveSettings, type ConnectionFlags } from '../settings/resolveSettings';
import { RunOutput, type CliContext } from '../context';

export interface ValidateOptions extends Pick<ConnectionFlags, 'topic' | 'config' | 'topicsFolder'> {
  format: OutputFormat;
}

export async function runValidate(paths: string[], options: ValidateOptions, context: CliContext): Promise<number> {
  const settings = await resolveSettings({ topic: options.topic, config: options.config, topicsFolder: options.topicsFolder }, context.env, context.cwd);
  const progress = createProgress('documents', context.stderr, context.env);
  // Ctrl-C: stop after the document at hand, say how far it got (and restore the terminal's cursor).
  const interrupts = watchInterrupts(context.stderr);
  try {
    const display = (path: string) => displayPath(path, context.cwd);
    const topics = await projectTopics(settings, context.cwd, display);
    const rules: DocumentRules = { topic: settings.topic?.value, topics: topics.catalog, acceptedTypes: settings.media.acceptedTypes };
    return await validateAll(paths, options.format, rules, topics, context, progress, interrupts.stop);
  } finally {
    progress.stop();
    interrupts.dispose();
  }
}

async function validateAll(paths: string[], format: OutputFormat, rules: DocumentRules, topics: ProjectTopics, context: CliContext, progress: Progress, stop: AbortSignal): Promise<number> {
  const { files, unreadable } = await collectDocuments(paths, context.cwd, progress.note, topics, stop);
  const definitions = topics.outcomes;
  const output = new RunOutput(context, 'validate', format, progress);
  for (const outcome of definitions) output.outcome(outcome);
  const display = (path: string) => displayPath(path, context.cwd);
  for (const outcome of unreadable) output.outcome({ ...outcome, status: 'invalid' });
  let bytes = 0;
  const sourceIds = new SourceIdOwners();
  for (const [index, path] of files.entries()) {
    if (stop.aborted) {
      progress.stop();
      return output.finish(`Interrupted: ${index} of ${files.length} spot documents checked, ${output.count('invalid')} invalid so far.`, EXIT.interrupted, 'interrupted');
    }
    const file = display(path);
    const checked = claimSourceId(await checkDocumentFile(path, rules, display), path, sourceIds, display);
    bytes += checked.text ? Buffer.byteLength(checked.text) : 0;
    if (!checked.ok) {
      output.outcome({ file, status: 'invalid', ok: false, reason: checked.reason, failure: checked.text === undefined ? 'unreadable' : 'document', findings: checked.findings });
    } else {
      output.outcome({ file, status: 'valid', ok: true, findings: checked.findings });
    }
    progress.update({ done: index + 1, total: files.length, bytes });
    // Reading is synchronous: give the event loop a turn now and then (Ctrl-C, the bar, stdout).
    if (index % 64 === 63) await new Promise((resolve) => setImmediate(resolve));
  }
  progress.stop();
  const broken = definitions.filter((outcome) => !outcome.ok).length;
  const invalid = output.count('invalid') - broken;
  const valid = output.count('valid') - (definitions.length - broken);
  const checkedCount = output.total - definitions.length;
  const documents = `${checkedCount} spot document${checkedCount === 1 ? '' : 's'} checked: ${invalid === 0 ? 'all valid' : `${invalid} invalid, ${valid} valid`}`;
  const definitionsNote = broken > 0 ? `; ${broken} topic definition file${broken === 1 ? '' : 's'} broken (not used)` : '';
  return output.finish(`${documents}${definitionsNote}.`, invalid + broken === 0 ? EXIT.ok : EXIT.failures);
}
