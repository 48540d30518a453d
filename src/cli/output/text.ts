// The default format, for people and for editors' problem matchers: `file:line:col: message` for
// each problem of a document, and one line per spot imported or file uploaded.
import type { Paint } from './color';
import type { LineWriter } from './lineWriter';
import type { Finding, GalleryRecord, Outcome } from './records';
import type { Reporter } from './reporter';
import { printableOutcome } from './printableOutcome';

/** After an interruption, thousands of "not attempted" lines would bury the rest: the first few, then a count. */
const NOT_ATTEMPTED_SHOWN = 10;

export function textReporter(out: LineWriter, paint: Paint): Reporter {
  let notAttempted = 0;
  return {
    outcome(outcome) {
      if (outcome.status === 'notAttempted' && ++notAttempted > NOT_ATTEMPTED_SHOWN) return;
      for (const line of textLines(printableOutcome(outcome), paint)) out.line(line);
    },
    finish() {
      // The summary line itself goes to stderr (see RunOutput), so stdout holds only results.
      if (notAttempted > NOT_ATTEMPTED_SHOWN) out.line(`… and ${notAttempted - NOT_ATTEMPTED_SHOWN} more not attempted.`);
    },
  };
}

function textLines(outcome: Outcome, paint: Paint): string[] {
  // A row of a table is named by its line, as editors go to it (file:line), or as its cells are (feature 3).
  const file = outcome.row ? `${outcome.file}:${outcome.row.cell ?? outcome.row.line}` : outcome.file;
  // A workbook's cell by its name (form.xlsx:Sheet1!C12), any other place by line and column.
  const at = (finding = outcome.findings[0]) => (finding ? `${outcome.file}:${finding.cell ?? `${finding.line}:${finding.column}`}` : file);
  const problem = (finding: Finding) => {
    const about = finding.mediaFile ? `${finding.mediaFile}: ` : '';
    const message = `${about}${finding.message}`;
    return `${at(finding)}: ${finding.severity === 'warning' ? paint.yellow(`warning: ${message}`) : paint.red(message)}`;
  };
  // Warnings of a document that is still valid or imported: shown after its line.
  const warnings = outcome.ok ? outcome.findings.map(problem) : [];
  switch (outcome.status) {
    case 'valid':
      return warnings;
    case 'invalid': {
      const reason = paint.red(outcome.reason ?? 'not a valid spot document.');
      if (outcome.findings.length === 0) return [`${at()}: ${reason}`];
      // Invalid for a reason none of its problems is (convert left a document as it was, and the
      // row had warnings only): the reason is said too, or nothing would say why.
      return hasError(outcome) ? outcome.findings.map(problem) : [`${file}: ${reason}`, ...outcome.findings.map(problem)];
    }
    case 'imported':
      // New or updated as the journal knew it (the service's answer does not tell the two apart).
      return [`${file}: ${paint.green(outcome.spot?.change === 'updated' ? 'updated' : 'imported')} ${describeSpot(outcome)}`, ...warnings];
    case 'alreadyImported':
      return [
        `${file}: ${paint.green('already imported')} ${describeSpot(outcome)} ${paint.dim('(the journal says this exact text was imported; nothing sent)')}`,
        ...warnings,
      ];
    case 'wouldImport':
      return [`${file}: ${paint.green('valid')}, would import "${outcome.spot?.sourceId}" ${paint.dim('(dry run: nothing sent)')}`, ...warnings];
    case 'failed':
      if (outcome.upload) return [`${at()}: ${paint.red('not uploaded')}: ${outcome.reason}`];
      // The document's errors are why it was not imported; without any (the service refused it, a
      // row with warnings only) the reason is, and its warnings are shown as warnings.
      if (hasError(outcome))
        return outcome.findings.map(
          (finding) => `${at(finding)}: ${paint.red('not imported')}: ${finding.mediaFile ? `${finding.mediaFile}: ` : ''}${finding.message}`,
        );
      return [`${file}: ${paint.red('not imported')}: ${outcome.reason}${describeFailedMedia(outcome)}`, ...outcome.findings.map(problem)];
    case 'interrupted':
      return [`${file}: ${paint.yellow('interrupted')}: ${outcome.reason}`];
    case 'notAttempted':
      return [`${file}: ${paint.yellow('not attempted')}: ${outcome.reason}`];
    case 'uploaded': {
      const upload = outcome.upload!;
      const media = upload.mediaId !== undefined ? ` as media ${upload.mediaId}` : '';
      return [`${outcome.file}: ${paint.green('uploaded')} to gallery ${upload.galleryId}${media} (${upload.mimeType}, ${formatBytes(upload.bytes)})`];
    }
  }
}

function hasError(outcome: Outcome): boolean {
  return outcome.findings.some((finding) => finding.severity === 'error');
}

function describeSpot(outcome: Outcome): string {
  const spot = outcome.spot;
  if (!spot) return '';
  const id = spot.spotId !== undefined ? ` as ${spot.change === 'new' ? 'new ' : ''}spot ${spot.spotId}` : '';
  const state = spot.state !== undefined && spot.galleries ? ` (state ${spot.state})` : '';
  const media = spot.galleries?.length ? `; media: ${spot.galleries.map(describeGallery).join(', ')}` : '';
  const written =
    spot.writeBack === 'disabled'
      ? '; gallery ids kept in the journal (--no-write-back)'
      : spot.writeBack === 'conflict' || spot.writeBack === 'failed'
        ? `; gallery ids NOT written into the document (${spot.writeBack}): the journal keeps them`
        : '';
  const pending = spot.pendingGalleries.length > 0 ? `; pending galleries: ${spot.pendingGalleries.map((g) => `${g.field} = ${g.galleryId}`).join(', ')}` : '';
  return `"${spot.sourceId}"${id}${state}${media}${written}${pending}`;
}

function describeGallery(gallery: GalleryRecord): string {
  const counts = [
    `${gallery.uploaded} uploaded`,
    ...(gallery.skipped ? [`${gallery.skipped} skipped`] : []),
    ...(gallery.resolved ? [`${gallery.resolved} resolved`] : []),
  ];
  return `${gallery.field} = ${gallery.galleryId ?? '?'} (${gallery.files} file${gallery.files === 1 ? '' : 's'}: ${counts.join(', ')})`;
}

function describeFailedMedia(outcome: Outcome): string {
  const failed = (outcome.spot?.galleries ?? []).flatMap((gallery) => gallery.failed.map((failure) => `${gallery.field}/${failure.file}: ${failure.reason}`));
  return failed.length > 0 ? ` (${failed.join('; ')})` : '';
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}
