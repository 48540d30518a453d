// Read-only documents showing a gallery as pretty-printed JSON (scheme spot-gallery:). Content
// from a TextDocumentContentProvider cannot be edited or saved, which is what a server view needs.
import * as vscode from 'vscode';
import type { ExtensionServices } from '../platform/services';

export const GALLERY_SCHEME = 'spot-gallery';

export function galleryJsonUri(galleryId: number): vscode.Uri {
  // The .json ending makes VS Code pick the JSON language (highlighting, folding).
  return vscode.Uri.from({ scheme: GALLERY_SCHEME, path: `/gallery-${galleryId}.json` });
}

function galleryIdOf(uri: vscode.Uri): number | undefined {
  const match = /\/gallery-(\d+)\.json$/.exec(uri.path);
  return match ? Number(match[1]) : undefined;
}

export class GalleryJsonDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly texts = new Map<string, string>();

  constructor(private readonly services: ExtensionServices) {}

  /** Fetches the gallery now (errors reach the command wrapper) and opens its document. */
  async open(galleryId: number): Promise<vscode.TextEditor> {
    const uri = galleryJsonUri(galleryId);
    this.texts.set(uri.toString(), await this.fetch(galleryId));
    this.changed.fire(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    return vscode.window.showTextDocument(document, { preview: true });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const known = this.texts.get(uri.toString());
    if (known !== undefined) return known;
    // A document restored with the window: nothing cached yet, so ask the service.
    const galleryId = galleryIdOf(uri);
    if (galleryId === undefined) return '// Not a gallery document.\n';
    try {
      return await this.fetch(galleryId);
    } catch (error) {
      return `// Could not load gallery ${galleryId}: ${error instanceof Error ? error.message : String(error)}\n`;
    }
  }

  dispose(): void {
    this.changed.dispose();
    this.texts.clear();
  }

  private async fetch(galleryId: number): Promise<string> {
    const { client } = await this.services.clients.client();
    const gallery = await client.getGallery(galleryId);
    return JSON.stringify(gallery, null, 2) + '\n';
  }
}
