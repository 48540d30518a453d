// Mark Spot Active: the explicit, opt-in step after a spot's media are uploaded. Imports are
// upserts, so the spot leaves state 2 by importing its document again with "state": 1 (and each
// pending gallery field holding its gallery id). The change is made in the document itself, as
// an undoable edit, and then sent by the ordinary Import Spot command, so validation, progress
// and errors are the usual ones.
import * as vscode from 'vscode';
import type * as Core from '../../../core';
import { required } from '../../platform/cancellation';
import { ActionableError, describeError } from '../../platform/errors';
import type { CommandServices } from '../../commands/commandTable';
import type { ExtensionServices } from '../../platform/services';
import { profileLabel, type KnownGallery } from '../../platform/domain';
import { profileIdOf, requireActiveProfile } from './galleryArgs';
import { COMMAND } from '../../platform/commandIds';

export const MARK_SPOT_ACTIVE = vscode.l10n.t('Mark Spot Active');
const MARK_ACTIVE_ANYWAY = vscode.l10n.t('Mark Active Anyway');

/** A spot node, or `{ spot: { spotId, sourceId }, profileId? }`. */
function spotOf(arg: unknown): { spotId: number; sourceId: string } | undefined {
  const spot = arg && typeof arg === 'object' ? (arg as { spot?: { spotId?: unknown; sourceId?: unknown } }).spot : undefined;
  return spot && typeof spot.spotId === 'number' && typeof spot.sourceId === 'string' ? { spotId: spot.spotId, sourceId: spot.sourceId } : undefined;
}

function openAndImportAdvice(sourceId: string): string {
  return vscode.l10n.t(
    'Open the spot document of "{0}", make it say "state": 1 (each pending gallery field its gallery id) and import it with Import Spot.',
    sourceId,
  );
}

/** undefined: cancelled, or the import did not succeed (it reported why). */
export async function markSpotActive(services: CommandServices, arg?: unknown): Promise<Core.ImportResult | undefined> {
  const spot = spotOf(arg);
  if (!spot) throw new ActionableError(vscode.l10n.t('Mark Spot Active works on a spot in the Galleries view: right-click the spot there.'));
  const active = requireActiveProfile(services);
  const profileId = profileIdOf(arg) ?? active.id;
  if (profileId !== active.id) {
    const owner = services.profiles.get(profileId);
    throw new ActionableError(
      vscode.l10n.t('"{0}" belongs to profile "{1}", not the active one: switch to it first.', spot.sourceId, owner ? profileLabel(owner) : profileId),
      [{ title: vscode.l10n.t('Switch Profile'), command: COMMAND.switchProfile, args: [profileId] }],
    );
  }

  const known = services.galleries.list(profileId).filter((gallery) => gallery.spot?.spotId === spot.spotId);
  const documentUri = known.map((gallery) => gallery.spot?.documentUri).find((uri) => uri !== undefined);
  if (!documentUri)
    throw new ActionableError(`${vscode.l10n.t('Not known which document "{0}" was imported from.', spot.sourceId)} ${openAndImportAdvice(spot.sourceId)}`);
  const uri = vscode.Uri.parse(documentUri, true);
  let document: vscode.TextDocument;
  try {
    document = await vscode.workspace.openTextDocument(uri);
  } catch (error) {
    const where = uri.scheme === 'file' ? uri.fsPath : documentUri;
    throw new ActionableError(
      `${vscode.l10n.t('Cannot open the spot document of "{0}" ({1}): {2}.', spot.sourceId, where, describeError(error).replace(/\.$/, ''))} ${openAndImportAdvice(spot.sourceId)}`,
    );
  }

  const pending = known.filter((gallery) => gallery.pending);
  if (pending.length > 0) {
    const names = pending
      .map((gallery) =>
        gallery.field !== undefined
          ? vscode.l10n.t('{0} (gallery {1})', gallery.field, gallery.galleryId)
          : vscode.l10n.t('gallery (gallery {0})', gallery.galleryId),
      )
      .join(', ');
    const answer = await services.ui.showWarningMessage(
      pending.length === 1
        ? vscode.l10n.t('{0} of "{1}" has no upload recorded. Mark the spot active anyway?', names, spot.sourceId)
        : vscode.l10n.t('{0} of "{1}" have no upload recorded. Mark the spot active anyway?', names, spot.sourceId),
      { modal: true, detail: vscode.l10n.t('An active spot (state 1) is shown to everyone, with whatever media its galleries hold now.') },
      MARK_ACTIVE_ANYWAY,
    );
    required(answer === MARK_ACTIVE_ANYWAY ? answer : undefined);
  }

  const core = await services.core();
  const galleries = Object.fromEntries(
    known.filter((gallery): gallery is KnownGallery & { field: string } => !!gallery.field).map((gallery) => [gallery.field, gallery.galleryId]),
  );
  const change = core.setSpotState(document.getText(), 1, galleries);
  if (!change.ok) throw new ActionableError(`${vscode.l10n.t('Not marked active: {0}', change.reason)} ${openAndImportAdvice(spot.sourceId)}`);

  await vscode.window.showTextDocument(document, { preview: false });
  if (change.edits.length > 0) {
    const edit = new vscode.WorkspaceEdit();
    for (const { offset, length, content } of change.edits) {
      edit.replace(uri, new vscode.Range(document.positionAt(offset), document.positionAt(offset + length)), content);
    }
    if (!(await vscode.workspace.applyEdit(edit)))
      throw new ActionableError(`${vscode.l10n.t('Could not change the spot document of "{0}".', spot.sourceId)} ${openAndImportAdvice(spot.sourceId)}`);
  }
  if (document.isDirty && !(await document.save())) {
    throw new ActionableError(
      vscode.l10n.t('Could not save the spot document of "{0}"; it now says "state": 1. Save it and import it with Import Spot.', spot.sourceId),
    );
  }
  services.log.info('import', `marking "${spot.sourceId}" active (state 1) from ${documentUri}`);

  const result = await vscode.commands.executeCommand<Core.ImportResult | undefined>(COMMAND.importSpot, uri);
  if (!result) return undefined;
  for (const gallery of known) await services.galleries.markUploaded(profileId, gallery.galleryId);
  for (const gallery of known) services.galleriesView.refreshGallery(gallery.galleryId, profileId);
  return result;
}

/**
 * After an upload into `galleryId`: the spot to offer Mark Spot Active for, when its document is
 * known and none of its galleries is pending any more.
 */
export function spotReadyToActivate(
  services: ExtensionServices,
  profileId: string,
  galleryId: number,
): { spot: { spotId: number; sourceId: string }; profileId: string } | undefined {
  const all = services.galleries.list(profileId);
  const spot = all.find((gallery) => gallery.galleryId === galleryId)?.spot;
  if (!spot) return undefined;
  const siblings = all.filter((gallery) => gallery.spot?.spotId === spot.spotId);
  if (!siblings.some((gallery) => gallery.spot?.documentUri) || siblings.some((gallery) => gallery.pending)) return undefined;
  return { spot: { spotId: spot.spotId, sourceId: spot.sourceId }, profileId };
}
