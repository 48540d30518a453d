// The default format, for people and for editors' problem matchers: `file:line:col: message` for
// each problem of a document, and one line per spot imported or file uploaded.
import type { Paint } from './color';
import type { LineWriter } from './lineWriter';
import type { Outcome } from './records';
import type { Reporter } from './reporter';

/** After an interruption, thousands of "not attempted" lines would bury the rest: the first few, then a count. */
const NOT_ATTEMPTED_SHOWN = 10;

export function textReporter(out: LineWriter, paint: Paint): Reporter {
  let notAttempted = 0;
  return {
    outcome(outcome) {
      if (outcome.status === 'notAttempted' && ++notAttempted > NOT_ATTEMPTED_SHOWN) return;
      for (const line of textLines(outcome, paint)) out.line(line);
    },
    finish() {
      // The summary line itself goes to stderr (see RunOutput), so stdout holds only results.
      if (notAttempted > NOT_ATTEMPTED_SHOWN) out.line(`… and ${notAttempted - NOT_ATTEMPTED_SHOWN} more not attempted.`);
    },
  };
}

export function textLines(outcome: Outcome, paint: Paint): string[] {
  const at = (finding = outcome.findings[0]) => (finding ? `${outcome.file}:${finding.line}:${finding.column}` : outcome.file);
  switch (outcome.status) {
    case 'valid':
      return [];
    case 'invalid':
      return outcome.findings.length > 0
        ? outcome.findings.map((finding) => `${at(finding)}: ${paint.red(finding.message)}`)
        : [`${at()}: ${paint.red(outcome.reason ?? 'not a valid spot document.')}`];
    case 'imported':
      return [`${at()}: ${paint.green('imported')} ${describeSpot(outcome)}`];
    case 'alreadyImported':
      return [`${at()}: ${paint.green('already imported')} ${describeSpot(outcome)} ${paint.dim('(recorded by an earlier run)')}`];
    case 'wouldImport':
      return [`${at()}: ${paint.green('valid')}, would import "${outcome.spot?.sourceId}" ${paint.dim('(dry run: nothing sent)')}`];
    case 'failed':
      if (outcome.upload) return [`${at()}: ${paint.red('not uploaded')}: ${outcome.reason}`];
      return [`${at()}: ${paint.red('not imported')}: ${outcome.reason}`];
    case 'notAttempted':
      return [`${at()}: ${paint.yellow('not attempted')}: ${outcome.reason}`];
    case 'uploaded': {
      const upload = outcome.upload!;
      const media = upload.mediaId !== undefined ? ` as media ${upload.mediaId}` : '';
      return [`${at()}: ${paint.green('uploaded')} to gallery ${upload.galleryId}${media} (${upload.mimeType}, ${formatBytes(upload.bytes)})`];
    }
  }
}

function describeSpot(outcome: Outcome): string {
  const spot = outcome.spot;
  if (!spot) return '';
  const id = spot.spotId !== undefined ? ` as spot ${spot.spotId}` : '';
  const pending = spot.pendingGalleries.length > 0 ? `; pending galleries: ${spot.pendingGalleries.map((g) => `${g.field} = ${g.galleryId}`).join(', ')}` : '';
  return `"${spot.sourceId}"${id}${pending}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}
