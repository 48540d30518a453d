// "Open Gallery": an editor tab with a grid of the gallery's thumbnails, file names and types.
// A webview with a strict Content-Security-Policy: scripts only with this page's nonce, images
// only from the profile's files host (and data:), styles only from the extension. The page is
// plain JavaScript (media/grid/grid.js, shipped minified as dist/grid.js); it lazy-loads images,
// moves with the arrow keys, opens a tile with Enter or a click (through the read-only media file
// system, as the tree does), and reorders by drag and drop or Alt+Arrow. It follows the gallery
// cache, so it refreshes whenever the gallery does (a refresh, an upload, a reorder from the tree).
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type * as Core from '../../../core';
import type { ExtensionServices } from '../../platform/services';
import type { GalleryCache } from '../galleryCache';
import type { ReorderRequest } from '../galleryReorder';
import { mediaUrlTemplateFor, SET_MEDIA_TEMPLATE_COMMAND } from '../media/mediaTemplate';
import { OPEN_MEDIA_COMMAND, shortFileName } from '../nodes/mediaNode';
import { checkedMessage, gridPage, type GridState } from './gridPage';

export type { GridState } from './gridPage';

const GRID_VIEW_TYPE = 'spotImport.galleryGrid';

export interface GridActions {
  label(profileId: string, galleryId: number): string;
  refresh(profileId: string, galleryId: number): void;
  reorder(request: ReorderRequest): Promise<unknown>;
  report(error: unknown): void;
}

const keyOf = (profileId: string, galleryId: number): string => `${profileId}\u0000${galleryId}`;

export class GalleryGrids implements vscode.Disposable {
  private readonly panels = new Map<string, GalleryGrid>();
  private readonly subscription: { dispose(): void };

  constructor(
    private readonly services: ExtensionServices,
    private readonly cache: GalleryCache,
    private readonly actions: GridActions,
  ) {
    this.subscription = cache.onDidChange((profileId, galleryId) => {
      void this.panels
        .get(keyOf(profileId, galleryId))
        ?.update()
        .catch((error: unknown) => services.log.warn('galleries', `the grid of gallery ${galleryId} could not be drawn`, error));
    });
  }

  /** Opens (or brings forward) the grid of a gallery. */
  async open(profileId: string, galleryId: number): Promise<GalleryGrid> {
    const key = keyOf(profileId, galleryId);
    const open = this.panels.get(key);
    if (open) {
      open.panel.reveal();
      return open;
    }
    const grid = new GalleryGrid(this.services, this.cache, this.actions, profileId, galleryId, () => this.panels.delete(key));
    this.panels.set(key, grid);
    await grid.update();
    return grid;
  }

  /** The open grid of a gallery (tests read what it shows). */
  find(profileId: string, galleryId: number): GalleryGrid | undefined {
    return this.panels.get(keyOf(profileId, galleryId));
  }

  dispose(): void {
    this.subscription.dispose();
    for (const grid of [...this.panels.values()]) grid.panel.dispose();
  }
}

export class GalleryGrid {
  readonly panel: vscode.WebviewPanel;
  /** The last state sent to the page (tests check it). */
  lastState: GridState | undefined;
  private readonly nonce = randomBytes(16).toString('base64');
  private imageOrigin = '';
  private disposed = false;

  constructor(
    private readonly services: ExtensionServices,
    private readonly cache: GalleryCache,
    private readonly actions: GridActions,
    readonly profileId: string,
    readonly galleryId: number,
    onDispose: () => void,
  ) {
    const extension = services.context.extensionUri;
    this.panel = vscode.window.createWebviewPanel(GRID_VIEW_TYPE, this.title(), vscode.ViewColumn.Active, {
      enableScripts: true,
      // The page's style (media/grid) and its script, built into dist/ (gridPage).
      localResourceRoots: [vscode.Uri.joinPath(extension, 'media', 'grid'), vscode.Uri.joinPath(extension, 'dist')],
    });
    this.panel.iconPath = {
      light: vscode.Uri.joinPath(services.context.extensionUri, 'media', 'gallery-light.svg'),
      dark: vscode.Uri.joinPath(services.context.extensionUri, 'media', 'gallery-dark.svg'),
    };
    const subscription = this.panel.webview.onDidReceiveMessage((message: unknown) => this.onMessage(message));
    this.panel.onDidDispose(() => {
      this.disposed = true;
      subscription.dispose();
      onDispose();
    });
  }

  /** Sends the gallery as the cache has it (loading it when it has none). */
  async update(): Promise<void> {
    if (this.disposed) return;
    const state = await this.state();
    if (this.disposed) return;
    this.panel.title = this.title();
    const origin = this.originOf(state);
    // A new files host (the sandbox restarted on another port) needs a new page and policy.
    if (origin !== this.imageOrigin || !this.panel.webview.html) {
      this.imageOrigin = origin;
      this.panel.webview.html = gridPage(this.panel.webview, this.services.context.extensionUri, this.imageOrigin, this.nonce);
    }
    this.lastState = state;
    await this.panel.webview.postMessage({ type: 'gallery', state });
  }

  private title(): string {
    return vscode.l10n.t('Gallery: {0}', this.actions.label(this.profileId, this.galleryId));
  }

  private async state(): Promise<GridState> {
    const base = { title: this.actions.label(this.profileId, this.galleryId) };
    let load = this.cache.peek(this.profileId, this.galleryId);
    if (!load) {
      // Not loaded (or just refreshed): read it. The cache tells this grid when it has the
      // answer; a load that was stopped is not kept, so that one is shown from here.
      void this.cache.load(this.profileId, this.galleryId).then(async (result) => {
        if (this.cache.peek(this.profileId, this.galleryId) || result.status !== 'failed' || this.disposed) return;
        this.lastState = { ...base, status: 'failed', message: result.failure.message, hasTemplate: false, tiles: [] };
        await this.panel.webview.postMessage({ type: 'gallery', state: this.lastState });
      });
      return { ...base, status: 'loading', hasTemplate: false, tiles: [] };
    }
    if (load.status === 'failed') return { ...base, status: 'failed', message: load.failure.message, hasTemplate: false, tiles: [] };
    const profile = this.services.profiles.get(this.profileId);
    const template = profile && mediaUrlTemplateFor(profile);
    const core = await this.services.core();
    // The gallery may have changed while the core loaded: send what is there now.
    load = this.cache.peek(this.profileId, this.galleryId) ?? load;
    const media = load.status === 'loaded' ? load.gallery.media : [];
    const tiles = media.map((item) => ({
      id: item.id,
      name: shortFileName(item.file),
      file: item.file,
      mimeType: item.mimeType,
      ...(template && item.mimeType.toLowerCase().startsWith('image/') ? { src: imageAddress(core, template, item) } : {}),
    }));
    return { ...base, status: 'loaded', hasTemplate: !!template, tiles };
  }

  /** The one origin images may come from: that of the tiles' addresses. */
  private originOf(state: GridState): string {
    const src = state.tiles.find((tile) => tile.src)?.src;
    if (!src) return this.imageOrigin;
    try {
      return new URL(src).origin;
    } catch {
      return this.imageOrigin;
    }
  }

  private async onMessage(raw: unknown): Promise<void> {
    const message = checkedMessage(raw);
    if (!message) return;
    try {
      switch (message.type) {
        case 'ready':
          if (this.lastState) await this.panel.webview.postMessage({ type: 'gallery', state: this.lastState });
          return;
        case 'open':
          await vscode.commands.executeCommand(
            OPEN_MEDIA_COMMAND,
            { profileId: this.profileId, galleryId: this.galleryId, mediaId: message.mediaId },
            { viewColumn: vscode.ViewColumn.Beside },
          );
          return;
        case 'move':
          await this.actions.reorder({ profileId: this.profileId, galleryId: this.galleryId, mediaIds: message.mediaIds, place: message.place });
          return;
        case 'refresh':
          this.actions.refresh(this.profileId, this.galleryId);
          return;
        case 'setTemplate':
          await vscode.commands.executeCommand(SET_MEDIA_TEMPLATE_COMMAND, { profileId: this.profileId });
          return;
      }
    } catch (error) {
      this.actions.report(error);
    }
  }
}

function imageAddress(core: typeof Core, template: string, media: Core.Media): string | undefined {
  try {
    return core.mediaFileUrl(template, media).toString();
  } catch {
    return undefined;
  }
}
