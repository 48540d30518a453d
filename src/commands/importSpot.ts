// Import Spot: validate the open document; with problems, show them and send nothing; otherwise
// send it under a cancellable progress notification and report the spot id and its pending
// galleries. Returns the result so tests and other commands can use it.
import type * as Core from '../core';
import { isSpotDocument } from '../documents/spotDocuments';
import { required, withCancellableProgress } from '../platform/cancellation';
import { ActionableError } from '../platform/errors';
import { profileLabel, type ExtensionServices } from '../platform/services';
import { announceImport, pendingAsKnown } from './importResultActions';
import { displayName, openAtProblem, spotTargetDocument } from './spotTarget';

export async function importSpot(services: ExtensionServices, target?: unknown): Promise<Core.ImportResult> {
  const document = await spotTargetDocument(target);
  const name = displayName(document.uri);
  const core = await services.core();
  if (!isSpotDocument(core, document)) {
    throw new ActionableError(`${name} is not a spot document: name it *.spot.json, or give it "data": {"type": "spots", …}.`, [
      { title: 'New Spot Document', command: 'spotImport.newSpotDocument' },
    ]);
  }

  const parsed = core.parseSpotText(document.getText());
  if (!parsed.document) {
    const first = parsed.problems[0];
    services.log.info('import', `${name} not sent: ${parsed.problems.length} problem(s)`, parsed.problems.map((problem) => `${problem.pointer || '/'}: ${problem.message}`));
    // The diagnostics service marks them in the editor; open it where the first one is.
    if (first) await openAtProblem(document.uri, first.offset, first.length);
    const more = parsed.problems.length > 1 ? ` (and ${parsed.problems.length - 1} more)` : '';
    throw new ActionableError(`Not imported, nothing was sent: ${name}: ${first?.message ?? 'not a valid spot document.'}${more}`, [
      { title: 'Show Problems', command: 'workbench.actions.view.problems' },
    ]);
  }

  const spot = parsed.document;
  const sourceId = spot.data.attributes.source_id;
  const { profile, client } = await services.clients.client();
  if (profile.topicId !== undefined && spot.data.attributes.topic_id !== profile.topicId) {
    const answer = await services.ui.showWarningMessage(
      `${name} has topic_id ${spot.data.attributes.topic_id}, but profile "${profileLabel(profile)}" serves topic ${profile.topicId}. Import anyway?`,
      { modal: true },
      'Import',
    );
    required(answer === 'Import' ? answer : undefined);
  }

  const result = await withCancellableProgress(
    { title: `Importing "${sourceId}" to ${profileLabel(profile)}…` },
    (_progress, signal) => client.importSpot(spot, { signal }),
  );
  services.log.info('import', `${name}: "${sourceId}" imported as spot ${result.spotId}`, { pendingGalleries: result.pendingGalleries });
  if (result.pendingGalleries.length > 0) await services.galleries.add(profile.id, pendingAsKnown(result, sourceId));
  announceImport(services, profile, sourceId, result);
  return result;
}

