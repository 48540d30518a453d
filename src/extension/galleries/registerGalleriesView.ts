// Creates the Galleries view and everything it owns: the tree, drag and drop (uploads from the
// Explorer, reordering media), the read-only gallery documents and media files, the gallery
// grids. Activation builds it before the commands, which receive it (CommandServices.galleriesView).
import * as vscode from 'vscode';
import { reportError } from '../platform/commandWrapper';
import type { ExtensionServices } from '../platform/services';
import { profileLabel } from '../platform/domain';
import { affectsMediaFiles } from '../platform/settings';
import { isShownInTab } from '../platform/tabs';
import type { TopicCatalogs } from './fieldLabels';
import { GalleriesTreeProvider } from './galleriesTreeProvider';
import type { GalleriesView } from './galleriesView';
import { GALLERIES_VIEW_ID } from './viewIds';
import { BUILT_IN_COMMAND } from '../platform/commandIds';
import { GalleryDropController } from './galleryDropController';
import { GALLERY_SCHEME, GalleryJsonDocuments } from './galleryJsonDocuments';
import { GalleryReorder } from './galleryReorder';
import type { GalleryGrids } from './grid/galleryGrid';
import { loadFeatures } from '../platform/lazyFeatures';
import { MediaFiles } from './media/mediaFiles';
import { MEDIA_SCHEME, MediaFileSystem } from './media/mediaFileSystem';

/** What the view takes from dist/features.js (see lazyFeatures.ts): the grids, which only a command opens. */
export interface ViewFeatures {
  GalleryGrids: typeof GalleryGrids;
}

export function registerGalleriesView(services: ExtensionServices, topics?: TopicCatalogs): GalleriesView {
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
  const treeView = vscode.window.createTreeView(GALLERIES_VIEW_ID, {
    treeDataProvider: provider,
    showCollapseAll: true,
    dragAndDropController: dropController,
  });
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
  // The grids' code (a webview page) is in dist/features.js: made when the first grid opens.
  let openGrids: GalleryGrids | undefined;
  const grids: GalleriesView['grids'] = {
    async open(profileId, galleryId) {
      const { GalleryGrids } = await loadFeatures<ViewFeatures>();
      if (!openGrids) {
        openGrids = new GalleryGrids(services, cache, {
          label: (profile, gallery) => provider.galleryLabel(gallery, profile),
          refresh: (profile, gallery) => provider.refreshGallery(gallery, profile),
          reorder: (request) => reorderer.move(request),
          report: (error) => reportError(services, error),
        });
        services.disposables.push(openGrids);
      }
      return openGrids.open(profileId, galleryId);
    },
    find: (profileId, galleryId) => openGrids?.find(profileId, galleryId),
  };

  // The view's subtitle names the profile whose galleries it lists ("Local (sandbox)" for the sandbox).
  const describeProfile = (): void => {
    const profile = services.profiles.active();
    treeView.description = profile ? profileLabel(profile) : undefined;
  };
  describeProfile();

  services.disposables.push(
    provider,
    treeView,
    documents,
    mediaFiles,
    files,
    vscode.workspace.registerTextDocumentContentProvider(GALLERY_SCHEME, documents),
    vscode.workspace.registerFileSystemProvider(MEDIA_SCHEME, mediaFiles, {
      isCaseSensitive: true,
      isReadonly: new vscode.MarkdownString(vscode.l10n.t('A media file of a spot gallery, as the files host serves it: it cannot be changed here.')),
    }),
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
    services.profiles.onDidChange(() => {
      // New credentials or another profile: failures shown so far may no longer hold.
      provider.profileChanged();
      describeProfile();
    }),
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
