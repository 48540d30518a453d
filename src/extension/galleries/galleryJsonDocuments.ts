// Read-only documents showing a gallery as pretty-printed JSON (scheme spot-gallery:). Content
// from a TextDocumentContentProvider cannot be edited or saved, which is what a server view needs.
// The address names the profile as well as the gallery: gallery 12 of one service is not
// gallery 12 of another.
import * as vscode from 'vscode';
import { withCancellableProgress } from '../platform/cancellation';
import { noActiveProfileError } from '../platform/errors';
import type { ExtensionServices } from '../platform/services';
import { GALLERY_SCHEME } from './viewIds';

function galleryJsonUri(profileId: string, galleryId: number): vscode.Uri {
  // The .json ending makes VS Code pick the JSON language (highlighting, folding).
  return vscode.Uri.from({ scheme: GALLERY_SCHEME, path: `/${encodeURIComponent(profileId)}/gallery-${galleryId}.json` });
}

/** How to get a gallery document back, for the comments shown instead of a gallery. */
function howToReopen(): string {
  return vscode.l10n.t('Reopen it from the Galleries view (right-click the gallery, Open Gallery JSON) or with the command "Spot Import: Open Gallery JSON".');
}

interface GalleryAddress {
  /** undefined: an address of the earlier format while no profile is active. */
  profileId: string | undefined;
  galleryId: number;
}

/**
 * The profile and gallery a document's address names. Earlier builds wrote `/gallery-12.json`
 * with no profile; tabs restored from such a window are read as a gallery of the active profile,
 * which is what those builds showed.
 */
function parseGalleryUri(uri: vscode.Uri, activeProfileId: string | undefined): GalleryAddress | undefined {
  const current = /^\/([^/]+)\/gallery-(\d+)\.json$/.exec(uri.path);
  if (current) {
    try {
      return { profileId: decodeURIComponent(current[1]), galleryId: Number(current[2]) };
    } catch {
      return undefined;
    }
  }
  const earlier = /^\/gallery-(\d+)\.json$/.exec(uri.path);
  return earlier ? { profileId: activeProfileId, galleryId: Number(earlier[1]) } : undefined;
}

export class GalleryJsonDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  /** Texts of open documents only, by their address (profile and gallery); dropped on close. */
  private readonly texts = new Map<string, string>();
  /** Documents of the earlier address format shown while no profile was active: loaded once one is. */
  private readonly waitingForProfile = new Map<string, vscode.Uri>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly services: ExtensionServices) {
    this.subscription = services.profiles.onDidChange(() => {
      if (!services.profiles.active()) return;
      const waiting = [...this.waitingForProfile.values()];
      this.waitingForProfile.clear();
      for (const uri of waiting) this.changed.fire(uri);
    });
  }

  /**
   * Fetches the gallery now, under a progress notification that can cancel it (errors reach the
   * command wrapper), and opens its document.
   */
  async open(galleryId: number, profileId = this.services.profiles.active()?.id, outerSignal?: AbortSignal): Promise<vscode.TextEditor> {
    if (!profileId) throw noActiveProfileError();
    const uri = galleryJsonUri(profileId, galleryId);
    const text = await withCancellableProgress({ title: vscode.l10n.t('Loading gallery {0}…', galleryId), signal: outerSignal }, (_progress, signal) =>
      this.fetch(profileId, galleryId, signal),
    );
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    return vscode.window.showTextDocument(document, { preview: true });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const known = this.texts.get(uri.toString());
    if (known !== undefined) return known;
    // A document restored with the window: nothing cached yet, so ask the service.
    const target = parseGalleryUri(uri, this.services.profiles.active()?.id);
    if (!target) return `// ${vscode.l10n.t('{0} is not the address of a gallery document.', uri.toString())} ${howToReopen()}\n`;
    if (target.profileId === undefined) {
      this.waitingForProfile.set(uri.toString(), uri);
      return `// ${vscode.l10n.t(
        'Gallery {0}: this tab was opened by an earlier version of Spot Import, whose addresses do not name the profile, and no profile is active. Pick one (Spot Import: Switch Profile…) and the gallery loads here from it, or reopen it from the Galleries view (right-click the gallery, Open Gallery JSON) or with the command "Spot Import: Open Gallery JSON".',
        target.galleryId,
      )}\n`;
    }
    try {
      const text = await this.fetch(target.profileId, target.galleryId);
      this.texts.set(uri.toString(), text);
      return text;
    } catch (error) {
      return `// ${vscode.l10n.t('Could not load gallery {0}: {1}', target.galleryId, error instanceof Error ? error.message : String(error))}\n`;
    }
  }

  /** The document was closed: its text is not needed any more. */
  forget(uri: vscode.Uri): void {
    if (uri.scheme !== GALLERY_SCHEME) return;
    this.texts.delete(uri.toString());
    this.waitingForProfile.delete(uri.toString());
  }

  /** How many texts are held (tests check that closing a document frees its text). */
  get size(): number {
    return this.texts.size;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
    this.texts.clear();
    this.waitingForProfile.clear();
  }

  private async fetch(profileId: string, galleryId: number, signal?: AbortSignal): Promise<string> {
    const { client } = await this.services.clients.clientFor(profileId);
    const gallery = await client.getGallery(galleryId, { signal });
    return JSON.stringify(gallery, null, 2) + '\n';
  }
}
