// --format github: GitHub Actions workflow commands, so problems show as annotations on the pull
// request's files (::error file=…,line=…,col=…::message). Values are escaped as the runner
// expects: %, CR and LF in messages; also : and , in properties.
import type { LineWriter } from './lineWriter';
import type { Outcome } from './records';
import type { Reporter } from './reporter';

export function githubReporter(out: LineWriter): Reporter {
  return {
    outcome(outcome) {
      for (const line of githubLines(outcome)) out.line(line);
    },
    finish() {
      // The exit code fails the step; the summary line is on stderr, in the log.
    },
  };
}

function githubLines(outcome: Outcome): string[] {
  if (outcome.ok && outcome.findings.length === 0) return [];
  const level = outcome.status === 'notAttempted' || outcome.status === 'interrupted' ? 'warning' : 'error';
  const file = outcome.file.split('\\').join('/');
  if (outcome.findings.length === 0) {
    return [command(level, { file, title: title(outcome) }, outcome.reason ?? 'Failed.')];
  }
  // The title is the rule that fired (topic.outOfRange, spot.media, …); a media problem sits on
  // the document's member and names the media file in its message.
  return outcome.findings.map((finding) =>
    command(
      finding.severity === 'warning' ? 'warning' : 'error',
      { file, line: finding.line, col: finding.column, endLine: finding.endLine, endColumn: finding.endColumn, title: finding.rule },
      finding.mediaFile ? `${finding.mediaFile}: ${finding.message}` : finding.message,
    ),
  );
}

function title(outcome: Outcome): string {
  if (outcome.status === 'notAttempted') return 'spot-import: not attempted';
  if (outcome.status === 'interrupted') return 'spot-import: interrupted';
  if (outcome.status === 'invalid' || outcome.failure === 'document') return 'spot-import: invalid spot document';
  if (outcome.upload) return 'spot-import: upload failed';
  return outcome.status === 'failed' ? 'spot-import: import failed' : 'spot-import';
}

function command(level: string, properties: Record<string, string | number>, message: string): string {
  const props = Object.entries(properties)
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`)
    .join(',');
  return `::${level} ${props}::${escapeData(message)}`;
}

function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
