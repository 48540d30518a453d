// Builds the Galleries view's parts and everything they own: the tree, drag and drop (uploads from
// the Explorer, reordering media), the read-only gallery documents and media files, the gallery
// grids. It is in dist/features.js: activation registers the view with stand-ins
// (galleriesViewShell.ts), which this plugs its parts into on the view's first need; the commands
// receive the view built (CommandServices.galleriesView).
import * as vscode from 'vscode';
import { reportError } from '../platform/commandWrapper';
import type { ExtensionServices } from '../platform/services';
import { affectsMediaFiles } from '../platform/settings';
import { isShownInTab } from '../platform/tabs';
import type { TopicCatalogs } from './fieldLabels';
import { GalleriesTreeProvider } from './galleriesTreeProvider';
import type { GalleriesView } from './galleriesView';
import type { GalleriesViewShell } from './galleriesViewShell';
import { GALLERIES_VIEW_ID } from './viewIds';
import { BUILT_IN_COMMAND } from '../platform/commandIds';
import { GalleryDropController } from './galleryDropController';
import { GalleryJsonDocuments } from './galleryJsonDocuments';
import { GalleryReorder } from './galleryReorder';
import { GalleryGrids } from './grid/galleryGrid';
import { MediaFiles } from './media/mediaFiles';
import { MediaFileSystem } from './media/mediaFileSystem';

export function buildGalleriesView(services: ExtensionServices, topics: TopicCatalogs | undefined, shell: GalleriesViewShell): GalleriesView {
  const files = new MediaFiles(services);
  const provider = new GalleriesTreeProvider(services, files, topics);
  const { cache } = provider;
  const viewProgress = <T>(task: () => Promise<T>) => vscode.window.withProgress({ location: { viewId: GALLERIES_VIEW_ID } }, task);
  const reorderer = new GalleryReorder(
    services,
    cache,
    {
      redraw: (profileId, galleryId) => provider.redrawGallery(galleryId, profileId),
      reload: (profileId, galleryId) => provider.refreshGallery(galleryId, profileId),
    },
    viewProgress,
  );
  const dropController = new GalleryDropController(() => services.ui, {
    orderOf: (profileId, galleryId) => {
      const load = cache.peek(profileId, galleryId);
      return load?.status === 'loaded' ? load.gallery.media.map((media) => media.id) : [];
    },
    reorder: (request) => reorderer.move(request),
    report: (error) => reportError(services, error),
  });
  const { treeView } = shell;
  const documents = new GalleryJsonDocuments(services);
  const mediaFiles = new MediaFileSystem(
    files,
    async (profileId, galleryId, mediaId) => {
      const load = await cache.load(profileId, galleryId);
      if (load.status === 'failed') throw new Error(load.failure.detail);
      return load.gallery.media.find((media) => media.id === mediaId);
    },
    services.log,
    (error) => reportError(services, error),
  );
  // Made when the first grid opens.
  let openGrids: GalleryGrids | undefined;
  const grids: GalleriesView['grids'] = {
    open(profileId, galleryId) {
      if (!openGrids) {
        openGrids = new GalleryGrids(services, cache, {
          label: (profile, gallery) => provider.galleryLabel(gallery, profile),
          refresh: (profile, gallery) => provider.refreshGallery(gallery, profile),
          reorder: (request) => reorderer.move(request),
          report: (error) => reportError(services, error),
        });
        shell.disposables.push(openGrids);
      }
      return openGrids.open(profileId, galleryId);
    },
    find: (profileId, galleryId) => openGrids?.find(profileId, galleryId),
  };

  shell.disposables.push(provider, documents, mediaFiles, files);
  shell.attach({ provider, dropController, documents, mediaFiles });
  shell.disposables.push(
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
      // Media rows say whether their files can be shown, which this setting decides for some profiles.
      if (affectsMediaFiles(event)) provider.rebuild();
    }),
    // New credentials or another profile: failures shown so far may no longer hold.
    services.profiles.onDidChange(() => provider.profileChanged()),
    // A folder trusted now: the local sandbox may start, so 'off in Restricted Mode' no longer holds.
    vscode.workspace.onDidGrantWorkspaceTrust(() => provider.profileChanged()),
  );

  const view: GalleriesView = {
    provider,
    treeView,
    dropController,
    documents,
    mediaFiles,
    reorderer,
    grids,
    refreshAll: () => provider.refreshAll(),
    refreshGallery: (galleryId, profileId) => provider.refreshGallery(galleryId, profileId),
    showMore: (galleryId, profileId) => provider.showMore(galleryId, profileId),
    async reveal(galleryId, profileId) {
      const node = provider.findGallery(galleryId, profileId);
      if (!node) {
        await vscode.commands.executeCommand(BUILT_IN_COMMAND.focusGalleriesView);
        return false;
      }
      await treeView.reveal(node, { select: true, focus: true, expand: true });
      return true;
    },
    async openJson(galleryId, profileId, signal) {
      await documents.open(galleryId, profileId, signal);
    },
    reorder: (request) => reorderer.move(request),
  };
  return view;
}
