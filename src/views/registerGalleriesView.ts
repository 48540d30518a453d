// Creates the Galleries view and everything it owns: the tree, drops from the Explorer, the
// read-only gallery documents. Commands reach it through services.galleriesView.
import * as vscode from 'vscode';
import type { ExtensionServices } from '../platform/services';
import { GalleriesTreeProvider } from './galleriesTreeProvider';
import type { GalleriesView } from './galleriesView';
import { GalleryDropController } from './galleryDropController';
import { GALLERY_SCHEME, GalleryJsonDocuments } from './galleryJsonDocuments';

export const GALLERIES_VIEW_ID = 'spotImport.galleries';

export function registerGalleriesView(services: ExtensionServices): void {
  const provider = new GalleriesTreeProvider(services);
  const dropController = new GalleryDropController(() => services.ui);
  const treeView = vscode.window.createTreeView(GALLERIES_VIEW_ID, {
    treeDataProvider: provider,
    showCollapseAll: true,
    dragAndDropController: dropController,
  });
  const documents = new GalleryJsonDocuments(services);

  // The view's subtitle names the profile whose galleries it lists.
  const describeProfile = (): void => {
    treeView.description = services.profiles.active()?.name;
  };
  describeProfile();

  services.context.subscriptions.push(
    provider,
    treeView,
    documents,
    vscode.workspace.registerTextDocumentContentProvider(GALLERY_SCHEME, documents),
    services.galleries.onDidChange(() => provider.rebuild()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      // Media rows carry preview links made from this setting.
      if (event.affectsConfiguration('spotImport.mediaUrlTemplate')) provider.rebuild();
    }),
    services.profiles.onDidChange(() => {
      // New credentials or another profile: failures shown so far may no longer hold.
      provider.cache.clear();
      describeProfile();
      provider.rebuild();
    }),
  );

  const view: GalleriesView = {
    provider,
    treeView,
    dropController,
    refreshAll: () => provider.refreshAll(),
    refreshGallery: (galleryId) => provider.refreshGallery(galleryId),
    showMore: (galleryId) => provider.showMore(galleryId),
    async reveal(galleryId) {
      const node = provider.findGallery(galleryId);
      if (!node) {
        await vscode.commands.executeCommand(`${GALLERIES_VIEW_ID}.focus`);
        return false;
      }
      await treeView.reveal(node, { select: true, focus: true, expand: true });
      return true;
    },
    async openJson(galleryId) {
      await documents.open(galleryId);
    },
  };
  services.galleriesView = view;
}
