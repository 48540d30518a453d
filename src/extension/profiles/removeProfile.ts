// Remove Profile: pick one (the built-in sandbox cannot be removed), confirm, and delete it
// together with its stored credentials, cached tokens and the galleries remembered for it.
import * as vscode from 'vscode';
import { required } from '../platform/cancellation';
import type { ExtensionServices } from '../platform/services';
import { profileLabel, type Profile } from '../platform/domain';

export async function removeProfile(services: ExtensionServices, profileId?: unknown): Promise<void> {
  const { profiles, ui } = services;
  const removable = profiles.list().filter((profile) => profile.kind === 'remote');
  if (removable.length === 0) {
    void ui.showInformationMessage(vscode.l10n.t('There is no profile to remove: only the built-in sandbox exists.'));
    return;
  }
  let profile = typeof profileId === 'string' ? removable.find((candidate) => candidate.id === profileId) : undefined;
  if (!profile) {
    const items = removable.map((candidate) => ({ label: profileLabel(candidate), description: candidate.baseUrl, profile: candidate }));
    profile = required(
      await ui.showQuickPick<vscode.QuickPickItem & { profile: Profile }>(items, {
        title: vscode.l10n.t('Remove Spot Import profile'),
        placeHolder: vscode.l10n.t('Profile to remove'),
      }),
    ).profile;
  }
  const remove = vscode.l10n.t({ message: 'Remove', args: [], comment: ['the button that confirms removing a profile'] });
  const answer = await ui.showWarningMessage(
    vscode.l10n.t('Remove profile "{0}"?', profileLabel(profile)),
    {
      modal: true,
      detail: vscode.l10n.t(
        'Its client credentials and the galleries remembered for it are deleted from this machine. Spots already imported stay on the service.',
      ),
    },
    remove,
  );
  required(answer === remove ? answer : undefined);
  services.clients.forget(profile.id);
  await services.credentials.delete(profile.id);
  await profiles.remove(profile.id);
  // Gallery ids belong to the removed account; a new profile must not inherit them.
  for (const gallery of services.galleries.list(profile.id)) await services.galleries.remove(profile.id, gallery.galleryId);
  void ui.showInformationMessage(vscode.l10n.t('Profile "{0}" removed.', profileLabel(profile)));
}
