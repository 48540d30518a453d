// Adds a gallery the user knows by id. It is checked with one GET first, so a typo does not sit
// in the view; a gallery that cannot be found can still be added on purpose.
import * as vscode from 'vscode';
import { withCancellableProgress } from '../../platform/cancellation';
import { profileLabel } from '../../platform/domain';
import { ActionableError, isServiceError } from '../../platform/errors';
import type { CommandServices } from '../../commands/commandTable';
import { requireActiveProfile, galleryIdOf, signalOf } from './galleryArgs';
import { askGalleryId } from './pickGallery';

const ADD_ANYWAY = vscode.l10n.t('Add Anyway');

export async function addGalleryById(services: CommandServices, arg?: unknown): Promise<void> {
  const profile = requireActiveProfile(services);
  const galleryId = galleryIdOf(arg) ?? (await askGalleryId(services, vscode.l10n.t('Add Gallery by Id')));
  const view = services.galleriesView;
  if (services.galleries.list(profile.id).some((known) => known.galleryId === galleryId)) {
    await view.reveal(galleryId);
    return;
  }
  try {
    // A slow or retrying service (or the sandbox starting) can take a while: shown, and cancellable.
    await withCancellableProgress(
      { title: vscode.l10n.t('Checking gallery {0} on {1}…', galleryId, profileLabel(profile)), signal: signalOf(arg) },
      async (_progress, signal) => {
        const { client } = await services.clients.clientFor(profile.id);
        await client.getGallery(galleryId, { signal });
      },
    );
  } catch (error) {
    if (!isServiceError(error) || error.kind !== 'http' || error.status !== 404) throw error;
    const question = error.serverMessage
      ? vscode.l10n.t('Gallery {0} was not found (404): {1}. Add it anyway?', galleryId, error.serverMessage)
      : vscode.l10n.t('Gallery {0} was not found (404). Add it anyway?', galleryId);
    const choice = await services.ui.showWarningMessage(question, {}, ADD_ANYWAY);
    if (choice !== ADD_ANYWAY) return;
  }
  await services.galleries.add(profile.id, [{ galleryId, pending: false }]);
  if (!(await view.reveal(galleryId))) {
    throw new ActionableError(vscode.l10n.t('Gallery {0} was added but is not shown: is another profile active now?', galleryId));
  }
}
