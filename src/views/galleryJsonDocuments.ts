// Read-only documents showing a gallery as pretty-printed JSON (scheme spot-gallery:). Content
// from a TextDocumentContentProvider cannot be edited or saved, which is what a server view needs.
// The address names the profile as well as the gallery: gallery 12 of one service is not
// gallery 12 of another.
import * as vscode from 'vscode';
import { ActionableError } from '../platform/errors';
import type { ExtensionServices } from '../platform/services';

export const GALLERY_SCHEME = 'spot-gallery';

export function galleryJsonUri(profileId: string, galleryId: number): vscode.Uri {
  // The .json ending makes VS Code pick the JSON language (highlighting, folding).
  return vscode.Uri.from({ scheme: GALLERY_SCHEME, path: `/${encodeURIComponent(profileId)}/gallery-${galleryId}.json` });
}

function parseGalleryUri(uri: vscode.Uri): { profileId: string; galleryId: number } | undefined {
  const match = /^\/([^/]+)\/gallery-(\d+)\.json$/.exec(uri.path);
  if (!match) return undefined;
  try {
    return { profileId: decodeURIComponent(match[1]), galleryId: Number(match[2]) };
  } catch {
    return undefined;
  }
}

export class GalleryJsonDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  /** Texts of open documents only, by their address (profile and gallery); dropped on close. */
  private readonly texts = new Map<string, string>();

  constructor(private readonly services: ExtensionServices) {}

  /** Fetches the gallery now (errors reach the command wrapper) and opens its document. */
  async open(galleryId: number, profileId = this.services.profiles.active()?.id): Promise<vscode.TextEditor> {
    if (!profileId) throw new ActionableError('No spot service profile is active.', [{ title: 'Switch Profile', command: 'spotImport.switchProfile' }]);
    const uri = galleryJsonUri(profileId, galleryId);
    this.texts.set(uri.toString(), await this.fetch(profileId, galleryId));
    this.changed.fire(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    return vscode.window.showTextDocument(document, { preview: true });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const known = this.texts.get(uri.toString());
    if (known !== undefined) return known;
    // A document restored with the window: nothing cached yet, so ask the service.
    const target = parseGalleryUri(uri);
    if (!target) return '// Not a gallery document.\n';
    try {
      const text = await this.fetch(target.profileId, target.galleryId);
      this.texts.set(uri.toString(), text);
      return text;
    } catch (error) {
      return `// Could not load gallery ${target.galleryId}: ${error instanceof Error ? error.message : String(error)}\n`;
    }
  }

  /** The document was closed: its text is not needed any more. */
  forget(uri: vscode.Uri): void {
    if (uri.scheme === GALLERY_SCHEME) this.texts.delete(uri.toString());
  }

  /** How many texts are held (tests check that closing a document frees its text). */
  get size(): number {
    return this.texts.size;
  }

  dispose(): void {
    this.changed.dispose();
    this.texts.clear();
  }

  private async fetch(profileId: string, galleryId: number): Promise<string> {
    const { client } = await this.services.clients.clientFor(profileId);
    const gallery = await client.getGallery(galleryId);
    return JSON.stringify(gallery, null, 2) + '\n';
  }
}
