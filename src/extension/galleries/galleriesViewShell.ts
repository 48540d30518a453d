// The Galleries view as activation registers it: the tree view, its drag and drop, and the two
// read-only schemes (gallery documents, media files), each standing in for its part until the
// view's code is needed. That code (the tree and its rows, the gallery cache, media files,
// reordering: a third of what activation would otherwise compile) is in dist/features.js, built
// by buildGalleriesView (buildGalleriesView.ts) when the view first asks for its rows, a gallery
// document or media file is read, something is dropped on the view, or a command runs.
import * as vscode from 'vscode';
import { reportError } from '../platform/commandWrapper';
import { profileLabel } from '../platform/domain';
import { DisposableStore } from '../platform/lifecycle';
import { buildOnFirstNeed } from '../platform/lazyFeatures';
import type { ExtensionServices } from '../platform/services';
import type { TopicCatalogs } from './fieldLabels';
import type { GalleriesTreeProvider } from './galleriesTreeProvider';
import type { GalleriesView } from './galleriesView';
import type { GalleryDropController } from './galleryDropController';
import type { GalleryJsonDocuments } from './galleryJsonDocuments';
import type { MediaFileSystem } from './media/mediaFileSystem';
import type { TreeNode } from './nodes/treeNode';
import { GALLERIES_VIEW_ID, GALLERY_SCHEME, MEDIA_DRAG_TYPE, MEDIA_SCHEME, URI_LIST } from './viewIds';

/** The parts that answer for the stand-ins once the view is built. */
interface GalleriesViewParts {
  provider: GalleriesTreeProvider;
  dropController: GalleryDropController;
  documents: GalleryJsonDocuments;
  mediaFiles: MediaFileSystem;
}

/** What buildGalleriesView gets from activation: the tree view, where to plug its parts in, and who owns them. */
export interface GalleriesViewShell {
  readonly treeView: vscode.TreeView<TreeNode>;
  attach(parts: GalleriesViewParts): void;
  /** This build's: disposed if it fails, else after the view and the schemes' registrations, which use the parts until then. */
  readonly disposables: DisposableStore;
}

/** What the view takes from dist/features.js (see lazyFeatures.ts). */
export interface ViewFeatures {
  buildGalleriesView(services: ExtensionServices, topics: TopicCatalogs | undefined, shell: GalleriesViewShell): GalleriesView;
}

/** The registered view; view() builds the rest of it once, on first need. */
export interface LazyGalleriesView {
  view(): Promise<GalleriesView>;
}

export function registerGalleriesView(services: ExtensionServices, topics?: TopicCatalogs): LazyGalleriesView {
  // Added before the registrations below: the store disposes in reverse, so they go first.
  const partsStore = services.disposables.add(new DisposableStore());
  let parts: GalleriesViewParts | undefined;
  let failedBefore = false;
  const treeChanged = new vscode.EventEmitter<TreeNode | undefined>();
  const documentChanged = new vscode.EventEmitter<vscode.Uri>();
  const filesChanged = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  /** The parts; only asked for by VS Code for rows or drags it got from them, so they are built by then. */
  const built = (): GalleriesViewParts => {
    if (!parts) throw new Error('The Galleries view is asked about a row before it has any');
    return parts;
  };
  const view = buildOnFirstNeed<ViewFeatures, GalleriesView>(
    partsStore,
    ({ buildGalleriesView }, disposables) => {
      const built = buildGalleriesView(services, topics, shellFor(disposables));
      // Rows asked for while a build failed showed nothing: VS Code asks again.
      if (failedBefore) treeChanged.fire(undefined);
      return built;
    },
    (error) => {
      // Said here, as the view and the editors would only show nothing; the next need tries again.
      failedBefore = true;
      services.log.error('galleries', 'the Galleries view could not be built', error);
      reportError(services, error);
    },
  );
  const ready = async (): Promise<GalleriesViewParts> => {
    await view();
    return built();
  };
  /** The parts, for a file system call: a view that could not be built is a file system that is not available. */
  const filesReady = async (uri: vscode.Uri): Promise<GalleriesViewParts> => {
    try {
      return await ready();
    } catch {
      throw vscode.FileSystemError.Unavailable(uri);
    }
  };

  const treeDataProvider: vscode.TreeDataProvider<TreeNode> = {
    onDidChangeTreeData: treeChanged.event,
    getChildren: async (node) => (await ready()).provider.getChildren(node),
    getTreeItem: (node) => built().provider.getTreeItem(node),
    getParent: (node) => built().provider.getParent(node),
    resolveTreeItem: (item, node, token) => built().provider.resolveTreeItem(item, node, token),
  };
  const dragAndDropController: vscode.TreeDragAndDropController<TreeNode> = {
    dropMimeTypes: [URI_LIST, MEDIA_DRAG_TYPE],
    dragMimeTypes: [MEDIA_DRAG_TYPE],
    handleDrag: (source, dataTransfer) => built().dropController.handleDrag(source, dataTransfer),
    // Files from the Explorer may be dropped on the view before it has shown a row.
    handleDrop: async (target, dataTransfer, token) => (await ready()).dropController.handleDrop(target, dataTransfer, token),
  };
  const treeView = vscode.window.createTreeView(GALLERIES_VIEW_ID, { treeDataProvider, showCollapseAll: true, dragAndDropController });
  /** What one try to build the view gets: the parts it makes and its listeners go into `disposables`. */
  const shellFor = (disposables: DisposableStore): GalleriesViewShell => ({
    treeView,
    disposables,
    attach(attached) {
      parts = attached;
      disposables.push(
        // Gone with their try: one that fails after attaching, or deactivation.
        {
          dispose: () => {
            if (parts === attached) parts = undefined;
          },
        },
        attached.provider.onDidChangeTreeData((node) => treeChanged.fire(node ?? undefined)),
        attached.documents.onDidChange((uri) => documentChanged.fire(uri)),
        attached.mediaFiles.onDidChangeFile((events) => filesChanged.fire(events)),
      );
    },
  });

  const documents: vscode.TextDocumentContentProvider = {
    onDidChange: documentChanged.event,
    provideTextDocumentContent: async (uri) => (await ready()).documents.provideTextDocumentContent(uri),
  };
  const mediaFiles: vscode.FileSystemProvider = {
    onDidChangeFile: filesChanged.event,
    // Media files do not change under a name: a new upload is a new media item.
    watch: () => new vscode.Disposable(() => undefined),
    stat: async (uri) => (await filesReady(uri)).mediaFiles.stat(uri),
    readDirectory: async (uri) => (await filesReady(uri)).mediaFiles.readDirectory(),
    readFile: async (uri) => (await filesReady(uri)).mediaFiles.readFile(uri),
    createDirectory: async (uri) => (await filesReady(uri)).mediaFiles.createDirectory(uri),
    writeFile: async (uri) => (await filesReady(uri)).mediaFiles.writeFile(uri),
    delete: async (uri) => (await filesReady(uri)).mediaFiles.delete(uri),
    rename: async (uri) => (await filesReady(uri)).mediaFiles.rename(uri),
  };

  // The view's subtitle names the profile whose galleries it lists ("Local (sandbox)" for the sandbox).
  const describeProfile = (): void => {
    const profile = services.profiles.active();
    treeView.description = profile ? profileLabel(profile) : undefined;
  };
  describeProfile();

  services.disposables.push(
    treeView,
    treeChanged,
    documentChanged,
    filesChanged,
    vscode.workspace.registerTextDocumentContentProvider(GALLERY_SCHEME, documents),
    vscode.workspace.registerFileSystemProvider(MEDIA_SCHEME, mediaFiles, {
      isCaseSensitive: true,
      isReadonly: new vscode.MarkdownString(vscode.l10n.t('A media file of a spot gallery, as the files host serves it: it cannot be changed here.')),
    }),
    services.profiles.onDidChange(describeProfile),
  );
  return { view };
}
