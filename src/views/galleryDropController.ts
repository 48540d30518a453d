// Files dragged from the Explorer onto a gallery node are uploaded into that gallery. The drop
// only hands the files to the upload command, so it gets the same progress, cancel and report.
import * as vscode from 'vscode';
import type { UiPrompts } from '../platform/services';
import type { TreeNode } from './nodes/treeNode';

const URI_LIST = 'text/uri-list';

/** text/uri-list (RFC 2483): one URI per line, lines starting with # are comments. */
export function parseUriList(text: string): vscode.Uri[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith('#'))
    .flatMap((line) => {
      try {
        return [vscode.Uri.parse(line, true)];
      } catch {
        return [];
      }
    });
}

/** The gallery a drop target belongs to: the gallery itself, or the gallery of a row under it. */
function galleryOf(node: TreeNode | undefined): TreeNode | undefined {
  for (let current = node; current; current = current.parent) {
    if (typeof (current as { galleryId?: unknown }).galleryId === 'number') return current;
  }
  return undefined;
}

export class GalleryDropController implements vscode.TreeDragAndDropController<TreeNode> {
  readonly dropMimeTypes = [URI_LIST];
  readonly dragMimeTypes: string[] = [];

  constructor(private readonly ui: () => UiPrompts) {}

  async handleDrop(target: TreeNode | undefined, dataTransfer: vscode.DataTransfer, token: vscode.CancellationToken): Promise<void> {
    const item = dataTransfer.get(URI_LIST);
    if (!item) return;
    const uris = parseUriList(await item.asString()).filter((uri) => uri.scheme === 'file');
    if (token.isCancellationRequested || uris.length === 0) return;
    const gallery = galleryOf(target);
    if (!gallery) {
      await this.ui().showInformationMessage('Drop the files onto a gallery to upload them there.');
      return;
    }
    // Not awaited: the drop returns at once and the upload shows its own progress notification.
    void vscode.commands.executeCommand('spotImport.gallery.upload', gallery, uris);
  }
}
