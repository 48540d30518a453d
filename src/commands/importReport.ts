// The account of a run of many spots (Import Folder: spot documents; Import Rows as Spots: the rows
// of a table), from the engine's typed outcome: one headline that says what was imported (with its
// media, when there were any), what failed and what was never attempted, and why the run ended
// early when it did; every spot in a pick (failures first) that opens its source at the problem
// (a document at its member, a row at its cell). The buttons follow the one policy (errorActions.ts).
import type * as Core from '../core';
import { actionsFor, showMessage, type MessageButton } from '../platform/errorActions';
import { describeError } from '../platform/errors';
import { profileLabel, type Profile } from '../platform/domain';
import type { CommandServices } from './commandTable';
import type { SearchLimits } from './findSpotFiles';
import { describeRemaining, describeSpotCounts, wasImported } from './importRun';

export const SHOW_DETAILS = 'Show Details';

/** What a run imported from, as its messages name it. */
export interface RunSubject {
  /** "batch" (a folder), "trees.csv" (a table). */
  name: string;
  /** What it holds: "spot documents", "rows". */
  items: string;
  /** What finishes a cancelled run: "importing the folder again". */
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
  outcome: Core.MediaWorkflowOutcome;
}

const STOPPED = { cancelled: 'cancelled', credentials: 'credentialsRejected', network: 'serviceUnreachable' } as const;

/** `truncatedAt`: the limits the search stopped at, if it did. */
export function summarizeRun(subject: Pick<RunSubject, 'name' | 'items'>, label: string, outcome: Core.MediaWorkflowOutcome, truncatedAt: SearchLimits | undefined): FolderImportSummary {
  const folderName = subject.name;
  const stop = outcome.stop?.kind === 'journal' ? undefined : outcome.stop?.kind;
  const withMedia = outcome.spots.some((spot) => spot.withMedia);
  const summary: FolderImportSummary = { folder: folderName, total: outcome.spots.length, imported: [], failed: [], notAttempted: [], stopped: stop && STOPPED[stop], truncated: truncatedAt !== undefined, headline: '', outcome };
  for (const spot of outcome.spots) {
    if (spot.status === 'done' && spot.spotId !== undefined) {
      const media = { uploaded: spot.galleries.reduce((sum, gallery) => sum + gallery.uploaded + gallery.resolved, 0), skipped: spot.galleries.reduce((sum, gallery) => sum + gallery.skipped, 0) };
      summary.imported.push({ file: spot.label, sourceId: spot.sourceId ?? spot.label, spotId: spot.spotId, kind: spot.change === 'new' ? 'new' : 'updated', ...(withMedia ? { media } : {}) });
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

function headline(summary: FolderImportSummary, items: string, label: string, withMedia: boolean, truncatedAt: SearchLimits | undefined): string {
  const { outcome, folder, total } = summary;
  const imported = summary.imported.length;
  const { uploaded, resolved, skipped } = outcome.totals;
  const media = withMedia ? ` (${uploaded + resolved} media uploaded, ${skipped} already there)` : '';
  // A spot the stop caught part-way is not attempted, but counted once, as imported but not
  // finished, so the counts add up to the total.
  const notAttempted = new Set(summary.notAttempted);
  const partly = outcome.spots.filter((spot) => notAttempted.has(spot.label) && wasImported(spot)).length;
  const untouched = summary.notAttempted.length - partly;
  const counts = [
    ...(summary.failed.length > 0 ? [`${summary.failed.length} failed`] : []),
    ...(untouched > 0 ? [`${untouched} not attempted`] : []),
    ...(partly > 0 ? [`${partly} imported but not finished`] : []),
  ];
  const tail = counts.length > 0 ? `; ${counts.join('; ')}` : '';
  const limit = truncatedAt
    ? ` — but ${folder} holds more than one run takes (${truncatedAt.files} spot documents or ${truncatedAt.candidates} JSON files), so some documents were not looked at: import its subfolders one by one`
    : '';
  const from = `${imported} of ${total} ${items} from ${folder} to ${label}`;
  switch (summary.stopped) {
    case 'credentialsRejected':
      return `Stopped: credentials rejected — imported ${from}${media}${tail}`;
    case 'serviceUnreachable':
      return `Stopped: the service could not be reached — imported ${from}${media}${tail}`;
    case 'cancelled': {
      // Without media counts in parentheses, the spots imported are named there.
      const names = summary.imported.slice(0, 5).map((entry) => `"${entry.sourceId}"`).join(', ');
      const which = withMedia || imported === 0 ? '' : ` (${names}${imported > 5 ? ` and ${imported - 5} more` : ''})`;
      return `Cancelled: imported ${from}${which}${media}${tail}`;
    }
  }
  if (summary.failed.length === 0) return `Imported ${truncatedAt ? '' : 'all '}${total} ${items} from ${folder} to ${label}${media}${limit}`;
  return `Imported ${imported} of ${total} ${items} to ${label}${media}${tail}${limit}`;
}

/** Why a spot is not done, for the summary. */
export function reasonOf(spot: Core.SpotOutcome): string {
  if (spot.status === 'invalid') return `${spot.reason ?? 'The document breaks a rule.'} (nothing was sent)`;
  const remaining = describeRemaining(spot);
  return `${spot.reason ?? spot.status}${remaining ? ` ${remaining}` : ''}`;
}

/** The summary, its log line and its message; returns the summary. */
export async function reportRun(services: CommandServices, profile: Profile, subject: RunSubject, outcome: Core.MediaWorkflowOutcome, truncatedAt?: SearchLimits): Promise<FolderImportSummary> {
  const summary = summarizeRun(subject, profileLabel(profile), outcome, truncatedAt);
  services.log.info('import', `${subject.name}: ${summary.headline}`, { failed: summary.failed, notAttempted: summary.notAttempted.length });
  const details: MessageButton = { title: SHOW_DETAILS, run: () => pickSpot(services, subject, summary.headline, outcome) };
  switch (summary.stopped) {
    case 'credentialsRejected':
    case 'serviceUnreachable':
      // The one policy's buttons for what stopped it (Update Credentials for the profile the run used, …).
      showMessage(services, 'error', `${summary.headline}. ${describeError(outcome.stop!.error)}`, [details, ...actionsFor(outcome.stop!.error, { profileId: profile.id })]);
      break;
    case 'cancelled':
      showMessage(services, 'warning', `${summary.headline}. What was done stays done; ${subject.again} finishes the rest (the journal in .spot-import remembers each step).`, [details]);
      break;
    default:
      // Failures: the pick at once (the command ends when the user has picked, or dismissed it).
      if (summary.failed.length > 0) await pickSpot(services, subject, summary.headline, outcome);
      else showMessage(services, summary.truncated ? 'warning' : 'info', `${summary.headline}.`, [details]);
  }
  return summary;
}

/** Every spot of the run in a pick: failures first; picking one opens its source (a failed one at the problem). */
async function pickSpot(services: CommandServices, subject: RunSubject, title: string, outcome: Core.MediaWorkflowOutcome): Promise<void> {
  const order = { failed: 0, invalid: 0, cancelled: 1, 'not-started': 2, done: 3 } as const;
  const spots = [...outcome.spots].sort((a, b) => order[a.status] - order[b.status]);
  const picked = await services.ui.showQuickPick(
    spots.map((spot) => ({
      label: `${spot.status === 'done' ? '$(check)' : spot.status === 'failed' || spot.status === 'invalid' ? '$(error)' : '$(circle-slash)'} ${spot.label}`,
      description: describeSpotCounts(spot),
      detail: spot.status === 'done' ? undefined : reasonOf(spot),
      spot,
    })),
    { title, placeHolder: 'Pick a spot to open where it came from (a failed one at the problem)', matchOnDescription: true, matchOnDetail: true },
  );
  if (picked) await subject.open(picked.spot);
}
