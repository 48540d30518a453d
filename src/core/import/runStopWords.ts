// Why a run stopped, in one clause per stop kind: every front end words a spot the stop caught
// ("not attempted: …", "Not started: …") with these, so the reasons read alike everywhere.
import { l10n } from '../text/l10n';
import type { RunStopKind } from './types';

/** "the run stopped because the credentials were refused": a clause, without capital or full stop. */
export function runStopCause(kind: RunStopKind): string {
  switch (kind) {
    case 'cancelled':
      return l10n.t('the run was interrupted first');
    case 'credentials':
      return l10n.t('the run stopped because the credentials were refused');
    case 'network':
      return l10n.t('the run stopped because the service could not be reached');
    case 'journal':
      return l10n.t('another run is using the journal');
  }
}
