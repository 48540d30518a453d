// Turns an error from the core (or from getting a client) into the short words of a message node
// and the one action most likely to fix it (the first the one policy, errorActions.ts, offers).
// Duck-typed on `kind`/`status` because the core is loaded lazily: its classes are not available
// here as values.
import * as vscode from 'vscode';
import type * as Core from '../../core';
import { actionsFor } from '../platform/errorActions';
import { untrustedCertificateAdvice, untrustedCertificateCode } from '../platform/errors';
import { COMMAND } from '../platform/commandIds';

interface FailureHint {
  title: string;
  command: string;
  /** When true the command receives the gallery node, so it acts on the right gallery. */
  passNode?: boolean;
  args?: unknown[];
}

export interface FailureDescription {
  message: string;
  detail: string;
  hint: FailureHint;
}

// Made when a failure is described, so their titles are in the display language.
const retry = (): FailureHint => ({ title: vscode.l10n.t('Retry'), command: COMMAND.refreshGallery, passNode: true });
/** A setting of the profile is wrong (its address, say): new credentials would not help. */
const switchProfile = (): FailureHint => ({ title: vscode.l10n.t('Switch Profile…'), command: COMMAND.switchProfile });
/** Shown under the gallery's own row: a gallery the service does not have can leave the view. */
const removeFromView = (): FailureHint => ({ title: vscode.l10n.t('Remove from View'), command: COMMAND.removeGallery, passNode: true });

function asServiceError(error: unknown): Partial<Core.ServiceError> & { message: string } {
  if (error && typeof error === 'object') return error as Partial<Core.ServiceError> & { message: string };
  return { message: String(error) };
}

/** The node's words by the kind of failure; its button is the one policy's (errorActions.ts) first. */
export function describeFailure(error: unknown): FailureDescription {
  const failure = asServiceError(error);
  const words = failure.serverMessage ?? failure.message ?? vscode.l10n.t('unknown error');
  const detail = failure.message ?? words;
  const again = retry();
  const hint: FailureHint = actionsFor(error, { notFound: removeFromView(), configuration: switchProfile(), retry: again })[0] ?? again;
  return { message: wordsFor(failure, words, error), detail: untrustedCertificateCode(error) ? `${detail} ${untrustedCertificateAdvice()}` : detail, hint };
}

function wordsFor(failure: Partial<Core.ServiceError>, words: string, error: unknown): string {
  switch (failure.kind) {
    case 'authentication':
      return vscode.l10n.t('Credentials rejected: {0}', words);
    case 'network':
      return untrustedCertificateCode(error) ? vscode.l10n.t('Certificate not trusted: {0}', words) : vscode.l10n.t('Service not reachable: {0}', words);
    case 'timeout':
      return vscode.l10n.t('Service not reachable: {0}', words);
    case 'cancelled':
      return vscode.l10n.t('Loading was cancelled');
    case 'malformed':
      return vscode.l10n.t('Unexpected reply: {0}', words);
    case 'http':
      // Shown under the gallery's own row, so the words need not repeat its id.
      if (failure.status === 404) return vscode.l10n.t('Not found (404): {0}', words);
      if (failure.status === 403) return vscode.l10n.t('Access denied (403): {0}', words);
      return failure.status === undefined
        ? vscode.l10n.t('Service answered an error: {0}', words)
        : vscode.l10n.t('Service answered {0}: {1}', failure.status, words);
    default:
      // An ActionableError of the extension layer ("no credentials yet"), or a bad address: its own words.
      return words;
  }
}
