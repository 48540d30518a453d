// The account of a run of many spots (Import Folder: spot documents; Import Table Rows as Spots: the rows
// of a table), from the engine's typed outcome: one headline that says what was imported (with its
// media, when there were any), what failed and what was never attempted, and why the run ended
// early when it did; every spot in a pick (failures first) that opens its source at the problem
// (a document at its member, a row at its cell). The buttons follow the one policy (errorActions.ts).
import * as vscode from 'vscode';
import type * as Core from '../../core';
import { actionsFor, showMessage, type MessageButton } from '../platform/errorActions';
import { describeError } from '../platform/errors';
import { profileLabel, type Profile } from '../platform/domain';
import type { CommandServices } from '../commands/commandTable';
import type { SearchLimits } from '../documents/findSpotFiles';
import { describeRemaining, describeSpotCounts, wasImported } from './importRun';

// A button's title. Read when dist/features.js loads, on the first command: VS Code has the
// extension's bundle by then.
const SHOW_DETAILS = vscode.l10n.t('Show Details');

/** What a run imported from, as its messages name it. */
export interface RunSubject {
  /** "batch" (a folder), "trees.csv" (a table). */
  name: string;
  /** What it holds: spot documents (a folder) or rows (a table); the messages say it in whole sentences. */
  items: 'spot documents' | 'rows';
  /** The sentence that says what finishes a cancelled run ("… importing the folder again finishes the rest …"). */
  again: string;
  /** Opens where a spot came from, at its first problem (the report's pick). */
  open(spot: Core.SpotOutcome): Promise<void>;
}

export interface FolderImportSummary {
  /** The folder (or table) as the messages name it. */
  folder: string;
  /** Spots found (and so attempted or not). */
  total: number;
  /** kind: new to the journal, or an update; media: for a folder with media, what its galleries got. */
  imported: Array<{ file: string; sourceId: string; spotId: number; kind: 'new' | 'updated'; media?: { uploaded: number; skipped: number } }>;
  /** Files that were tried and failed for a reason of their own (document problems, server errors). */
  failed: Array<{ file: string; reason: string }>;
  /** Files the run did not import because it stopped first (including any in flight when it stopped). */
  notAttempted: string[];
  /** Why the run ended early, if it did. */
  stopped?: 'cancelled' | 'credentialsRejected' | 'serviceUnreachable';
  /** The search stopped at its limit: the folder may hold more spot documents than were imported. */
  truncated: boolean;
  /** The one-line account the user was shown. */
  headline: string;
  /** Every spot's outcome, as the engine gave it. */
  outcome: Core.ImportOutcome;
}

const STOPPED = { cancelled: 'cancelled', credentials: 'credentialsRejected', network: 'serviceUnreachable' } as const;

/** `truncatedAt`: the limits the search stopped at, if it did. */
function summarizeRun(
  subject: Pick<RunSubject, 'name' | 'items'>,
  label: string,
  outcome: Core.ImportOutcome,
  truncatedAt: SearchLimits | undefined,
): FolderImportSummary {
  const folderName = subject.name;
  const stop = outcome.stop?.kind === 'journal' ? undefined : outcome.stop?.kind;
  const withMedia = outcome.spots.some((spot) => spot.withMedia);
  const summary: FolderImportSummary = {
    folder: folderName,
    total: outcome.spots.length,
    imported: [],
    failed: [],
    notAttempted: [],
    stopped: stop && STOPPED[stop],
    truncated: truncatedAt !== undefined,
    headline: '',
    outcome,
  };
  for (const spot of outcome.spots) {
    if (spot.status === 'done' && spot.spotId !== undefined) {
      const media = {
        uploaded: spot.galleries.reduce((sum, gallery) => sum + gallery.uploaded + gallery.resolved, 0),
        skipped: spot.galleries.reduce((sum, gallery) => sum + gallery.skipped, 0),
      };
      summary.imported.push({
        file: spot.label,
        sourceId: spot.sourceId ?? spot.label,
        spotId: spot.spotId,
        kind: spot.change === 'new' ? 'new' : 'updated',
        ...(withMedia ? { media } : {}),
      });
    } else if (caughtByTheStop(spot, outcome.stop)) {
      summary.notAttempted.push(spot.label);
    } else {
      summary.failed.push({ file: spot.label, reason: reasonOf(spot) });
    }
  }
  summary.headline = headline(summary, subject.items, label, withMedia, truncatedAt);
  return summary;
}

/** Not started, or in flight when the run stopped, and stopped by the same cause: not attempted. */
function caughtByTheStop(spot: Core.SpotOutcome, stop: Core.RunStop | undefined): boolean {
  if (spot.status === 'not-started') return true;
  return stop !== undefined && spot.failure?.kind === stop.kind;
}

function headline(summary: FolderImportSummary, items: RunSubject['items'], label: string, withMedia: boolean, truncatedAt: SearchLimits | undefined): string {
  const { outcome, folder, total } = summary;
  const imported = summary.imported.length;
  const { uploaded, resolved, skipped } = outcome.totals;
  const media = withMedia ? ` ${vscode.l10n.t('({0} media uploaded, {1} already there)', uploaded + resolved, skipped)}` : '';
  // A spot the stop caught part-way is not attempted, but counted once, as imported but not
  // finished, so the counts add up to the total.
  const notAttempted = new Set(summary.notAttempted);
  const partly = outcome.spots.filter((spot) => notAttempted.has(spot.label) && wasImported(spot)).length;
  const untouched = summary.notAttempted.length - partly;
  const counts = [
    ...(summary.failed.length > 0 ? [vscode.l10n.t('{0} failed', summary.failed.length)] : []),
    ...(untouched > 0 ? [vscode.l10n.t('{0} not attempted', untouched)] : []),
    ...(partly > 0 ? [vscode.l10n.t('{0} imported but not finished', partly)] : []),
  ];
  const tail = counts.length > 0 ? `; ${counts.join('; ')}` : '';
  const limit = truncatedAt
    ? ` ${vscode.l10n.t('— but {0} holds more than one run takes ({1} spot documents or {2} JSON files), so some documents were not looked at: import its subfolders one by one', folder, truncatedAt.files, truncatedAt.candidates)}`
    : '';
  const rows = items === 'rows';
  const from = rows
    ? vscode.l10n.t('{0} of {1} rows from {2} to {3}', imported, total, folder, label)
    : vscode.l10n.t('{0} of {1} spot documents from {2} to {3}', imported, total, folder, label);
  switch (summary.stopped) {
    case 'credentialsRejected':
      return `${vscode.l10n.t('Stopped: credentials rejected — imported {0}', from)}${media}${tail}`;
    case 'serviceUnreachable':
      return `${vscode.l10n.t('Stopped: the service could not be reached — imported {0}', from)}${media}${tail}`;
    case 'cancelled': {
      // Without media counts in parentheses, the spots imported are named there.
      const names = summary.imported
        .slice(0, 5)
        .map((entry) => `"${entry.sourceId}"`)
        .join(', ');
      const which = withMedia || imported === 0 ? '' : ` (${imported > 5 ? vscode.l10n.t('{0} and {1} more', names, imported - 5) : names})`;
      return `${vscode.l10n.t('Cancelled: imported {0}', from)}${which}${media}${tail}`;
    }
  }
  if (summary.failed.length === 0) {
    const all = truncatedAt
      ? rows
        ? vscode.l10n.t('Imported {0} rows from {1} to {2}', total, folder, label)
        : vscode.l10n.t('Imported {0} spot documents from {1} to {2}', total, folder, label)
      : rows
        ? vscode.l10n.t('Imported all {0} rows from {1} to {2}', total, folder, label)
        : vscode.l10n.t('Imported all {0} spot documents from {1} to {2}', total, folder, label);
    return `${all}${media}${limit}`;
  }
  const some = rows
    ? vscode.l10n.t('Imported {0} of {1} rows to {2}', imported, total, label)
    : vscode.l10n.t('Imported {0} of {1} spot documents to {2}', imported, total, label);
  return `${some}${media}${tail}${limit}`;
}

/** Why a spot is not done, for the summary. */
function reasonOf(spot: Core.SpotOutcome): string {
  if (spot.status === 'invalid')
    return spot.reason !== undefined ? vscode.l10n.t('{0} (nothing was sent)', spot.reason) : vscode.l10n.t('The document breaks a rule. (nothing was sent)');
  const remaining = describeRemaining(spot);
  return `${spot.reason ?? statusWords(spot.status)}${remaining ? ` ${remaining}` : ''}`;
}

/** A spot's status, in words, where no reason says more. */
function statusWords(status: Core.SpotOutcome['status']): string {
  switch (status) {
    case 'done':
      return vscode.l10n.t({ message: 'done', args: [], comment: ['the status of a spot in an import report'] });
    case 'invalid':
      return vscode.l10n.t({ message: 'invalid', args: [], comment: ['the status of a spot in an import report'] });
    case 'failed':
      return vscode.l10n.t({ message: 'failed', args: [], comment: ['the status of a spot in an import report'] });
    case 'cancelled':
      return vscode.l10n.t({ message: 'cancelled', args: [], comment: ['the status of a spot in an import report'] });
    case 'not-started':
      return vscode.l10n.t({ message: 'not-started', args: [], comment: ['the status of a spot in an import report'] });
    case 'checked':
      return vscode.l10n.t({ message: 'checked', args: [], comment: ['the status of a spot in an import report: checked, nothing sent'] });
  }
}

/** The summary, its log line and its message; returns the summary. */
export async function reportRun(
  services: CommandServices,
  profile: Profile,
  subject: RunSubject,
  outcome: Core.ImportOutcome,
  truncatedAt?: SearchLimits,
): Promise<FolderImportSummary> {
  const summary = summarizeRun(subject, profileLabel(profile), outcome, truncatedAt);
  services.log.info('import', `${subject.name}: ${summary.headline}`, { failed: summary.failed, notAttempted: summary.notAttempted.length });
  const details: MessageButton = { title: SHOW_DETAILS, run: () => pickSpot(services, subject, summary.headline, outcome) };
  switch (summary.stopped) {
    case 'credentialsRejected':
    case 'serviceUnreachable':
      // The one policy's buttons for what stopped it (Update Credentials for the profile the run used, …).
      showMessage(services, 'error', `${summary.headline}. ${describeError(outcome.stop!.error)}`, [
        details,
        ...actionsFor(outcome.stop!.error, { profileId: profile.id }),
      ]);
      break;
    case 'cancelled':
      showMessage(services, 'warning', `${summary.headline}. ${subject.again}`, [details]);
      break;
    default:
      // Failures: the pick at once (the command ends when the user has picked, or dismissed it).
      if (summary.failed.length > 0) await pickSpot(services, subject, summary.headline, outcome);
      else showMessage(services, summary.truncated ? 'warning' : 'info', `${summary.headline}.`, [details]);
  }
  return summary;
}

/** Every spot of the run in a pick: failures first; picking one opens its source (a failed one at the problem). */
async function pickSpot(services: CommandServices, subject: RunSubject, title: string, outcome: Core.ImportOutcome): Promise<void> {
  const order = { failed: 0, invalid: 0, cancelled: 1, 'not-started': 2, done: 3, checked: 3 } as const;
  const spots = [...outcome.spots].sort((a, b) => order[a.status] - order[b.status]);
  const picked = await services.ui.showQuickPick(
    spots.map((spot) => ({
      label: `${spot.status === 'done' ? '$(check)' : spot.status === 'failed' || spot.status === 'invalid' ? '$(error)' : '$(circle-slash)'} ${spot.label}`,
      description: describeSpotCounts(spot),
      detail: spot.status === 'done' ? undefined : reasonOf(spot),
      spot,
    })),
    {
      title,
      placeHolder: vscode.l10n.t('Pick a spot to open where it came from (a failed one at the problem)'),
      matchOnDescription: true,
      matchOnDetail: true,
    },
  );
  if (picked) await subject.open(picked.spot);
}
