// Creates the Galleries view and everything it owns: the tree, drops from the Explorer, the
// read-only gallery documents. Commands reach it through services.galleriesView.
import * as vscode from 'vscode';
import { profileLabel, type ExtensionServices } from '../platform/services';
import { isShownInTab } from '../platform/tabs';
import { GalleriesTreeProvider } from './galleriesTreeProvider';
import { GALLERIES_VIEW_ID, type GalleriesView } from './galleriesView';
import { GalleryDropController } from './galleryDropController';
import { GALLERY_SCHEME, GalleryJsonDocuments } from './galleryJsonDocuments';

export { GALLERIES_VIEW_ID };

export function registerGalleriesView(services: ExtensionServices): void {
  const provider = new GalleriesTreeProvider(services);
  const dropController = new GalleryDropController(() => services.ui);
  const treeView = vscode.window.createTreeView(GALLERIES_VIEW_ID, {
    treeDataProvider: provider,
    showCollapseAll: true,
    dragAndDropController: dropController,
  });
  const documents = new GalleryJsonDocuments(services);

  // The view's subtitle names the profile whose galleries it lists ("Local (sandbox)" for the sandbox).
  const describeProfile = (): void => {
    const profile = services.profiles.active();
    treeView.description = profile ? profileLabel(profile) : undefined;
  };
  describeProfile();

  services.context.subscriptions.push(
    provider,
    treeView,
    documents,
    vscode.workspace.registerTextDocumentContentProvider(GALLERY_SCHEME, documents),
    // A gallery document's text is dropped once no tab shows it (VS Code itself may keep a closed
    // document for minutes before it reports the close), and at the latest when it is closed.
    vscode.window.tabGroups.onDidChangeTabs((event) => {
      for (const tab of event.closed) {
        if (tab.input instanceof vscode.TabInputText && !isShownInTab(tab.input.uri)) documents.forget(tab.input.uri);
      }
    }),
    vscode.workspace.onDidCloseTextDocument((document) => documents.forget(document.uri)),
    services.galleries.onDidChange(() => provider.rebuild()),
    // Collapsing a gallery whose media are still loading stops the request (it may be retrying).
    treeView.onDidCollapseElement((event) => provider.cancelLoad(event.element)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      // Media rows carry preview links made from this setting.
      if (event.affectsConfiguration('spotImport.mediaUrlTemplate')) provider.rebuild();
    }),
    services.profiles.onDidChange(() => {
      // New credentials or another profile: failures shown so far may no longer hold.
      provider.profileChanged();
      describeProfile();
    }),
  );

  const view: GalleriesView = {
    provider,
    treeView,
    dropController,
    documents,
    refreshAll: () => provider.refreshAll(),
    refreshGallery: (galleryId, profileId) => provider.refreshGallery(galleryId, profileId),
    showMore: (galleryId, profileId) => provider.showMore(galleryId, profileId),
    async reveal(galleryId, profileId) {
      const node = provider.findGallery(galleryId, profileId);
      if (!node) {
        await vscode.commands.executeCommand(`${GALLERIES_VIEW_ID}.focus`);
        return false;
      }
      await treeView.reveal(node, { select: true, focus: true, expand: true });
      return true;
    },
    async openJson(galleryId, profileId) {
      await documents.open(galleryId, profileId);
    },
  };
  services.galleriesView = view;
}
