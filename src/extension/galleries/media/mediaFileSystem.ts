// A read-only file system (scheme spot-media:) whose files are the media of the galleries, read
// from the files host. VS Code opens them in its own editors by their extension: the image preview
// for images, the video player for videos. Bytes, not text documents (the pattern of the AWS
// Toolkit's S3 file viewer), so nothing is decoded as text and nothing can be saved.
//
// Address: spot-media:/{profile id}/{gallery id}/{media id}/{name}, the name being what the tab
// shows (mediaDisplayName). Files are held in memory while a tab shows them; a tab restored with
// the window, or opened from a media row (vscode.open: the editor reads the file), downloads its
// file as the editor reads it. A failure is reported as a command's is (the editor alone would
// show no reason); a download the user declined or cancelled closes the tab that asked for it.
import * as vscode from 'vscode';
import type * as Core from '../../../core';
import { isCancellation, withCancellableProgress } from '../../platform/cancellation';
import type { Logger } from '../../platform/services';
import { MEDIA_SCHEME } from '../viewIds';
import type { MediaFiles, MediaTarget } from './mediaFiles';

/** Files held beyond this (and shown in no tab) are dropped, oldest first. */
const MAX_HELD_BYTES = 512 * 1024 * 1024;
/** A file downloaded less than this long ago is kept even though no tab shows it yet. */
const FRESH_MS = 30_000;

interface MediaAddress {
  profileId: string;
  galleryId: number;
  mediaId: number;
  name: string;
}

function mediaUri(address: MediaAddress): vscode.Uri {
  return vscode.Uri.from({ scheme: MEDIA_SCHEME, path: `/${encodeURIComponent(address.profileId)}/${address.galleryId}/${address.mediaId}/${address.name}` });
}

/** The address a media item of a gallery is opened by (its tab shows the core's display name). */
export function mediaAddressOf(core: Pick<typeof Core, 'mediaDisplayName'>, profileId: string, galleryId: number, media: Core.Media): vscode.Uri {
  return mediaUri({ profileId, galleryId, mediaId: media.id, name: core.mediaDisplayName(media) });
}

function parseMediaUri(uri: vscode.Uri): MediaAddress | undefined {
  const match = /^\/([^/]+)\/(\d+)\/(\d+)\/([^/]+)$/.exec(uri.path);
  if (uri.scheme !== MEDIA_SCHEME || !match) return undefined;
  try {
    return { profileId: decodeURIComponent(match[1]), galleryId: Number(match[2]), mediaId: Number(match[3]), name: match[4] };
  } catch {
    return undefined;
  }
}

/** Finds a media record (from the loaded gallery, or by reading the gallery). */
export type FindMedia = (profileId: string, galleryId: number, mediaId: number) => Promise<Core.Media | undefined>;

interface Held {
  bytes: Uint8Array;
  mtime: number;
}

export class MediaFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  private readonly held = new Map<string, Held>();
  private readonly loading = new Map<string, Promise<Uint8Array>>();
  /**
   * Files whose failure was reported, until their tabs close or a read succeeds: editors reading
   * one file at the same time share its download, and an editor that reads it again (VS Code 1.139
   * does while the tab stays open) is not told again.
   */
  private readonly reported = new Set<string>();
  /**
   * Files declined (No to the size question, or Cancel), until a tab opens one again: the preview
   * may read its file again after No, even once its tab has closed (VS Code 1.139 does; its reads
   * come through the workbench, after its tab events), and the user who just said No is not asked
   * again. Opening the file again (a new tab) asks as the first time did.
   */
  private readonly declined = new Set<string>();
  private readonly subscription: vscode.Disposable;

  /** `report`: shows a failure as the command wrapper does (what happened, the next step, Show Log). */
  constructor(
    private readonly files: MediaFiles,
    private readonly findMedia: FindMedia,
    private readonly log: Logger,
    private readonly report: (error: unknown) => void,
  ) {
    this.subscription = vscode.window.tabGroups.onDidChangeTabs((event) => {
      for (const tab of event.opened) this.declined.delete(tabUriKey(tab) ?? '');
      if (event.closed.length > 0) this.dropUnshown();
    });
  }

  /**
   * The file's bytes: held ones, or downloaded now under a cancellable progress notification
   * (with the size question for large files). Concurrent callers share one download.
   */
  load(uri: vscode.Uri, signal?: AbortSignal): Promise<Uint8Array> {
    const key = keyOf(uri);
    const held = this.held.get(key);
    if (held) return Promise.resolve(held.bytes);
    let running = this.loading.get(key);
    if (!running) {
      running = this.download(uri.with({ query: '', fragment: '' }), signal).finally(() => this.loading.delete(key));
      this.loading.set(key, running);
    }
    return running;
  }

  /** Whether the file is in memory (tests check that closing its tab lets it go). */
  isHeld(uri: vscode.Uri): boolean {
    return this.held.has(keyOf(uri));
  }

  watch(): vscode.Disposable {
    // Media files do not change under a name: a new upload is a new media item.
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const address = parseMediaUri(uri);
    if (!address) {
      // The folders above a file (profile, gallery, media id) exist as far as anyone asks.
      if (uri.path.split('/').filter(Boolean).length < 4) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0, permissions: vscode.FilePermission.Readonly };
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    const held = this.held.get(keyOf(uri));
    return { type: vscode.FileType.File, ctime: held?.mtime ?? 0, mtime: held?.mtime ?? 0, size: held?.bytes.length ?? 0, permissions: vscode.FilePermission.Readonly };
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const key = keyOf(uri);
    if (this.declined.has(key)) throw vscode.FileSystemError.Unavailable(vscode.l10n.t('{0} was not downloaded (declined).', parseMediaUri(uri)?.name ?? uri.path));
    try {
      return await this.load(uri);
    } catch (error) {
      if (isCancellation(error)) {
        // No to the size question, or Cancel: the file is not wanted, so neither is its tab.
        this.declined.add(key);
        this.log.info('media', `TRACE declined ${key} shown=${[...shownUris()].join(',')}`);
        void this.closeTabsShowing(uri);
      } else {
        this.log.warn('media', `could not read ${uri.toString()}`, error);
        if (!this.reported.has(keyOf(uri))) {
          this.reported.add(keyOf(uri));
          this.report(error);
        }
      }
      if (error instanceof vscode.FileSystemError) throw error;
      // Shown in the editor in place of the file.
      throw vscode.FileSystemError.Unavailable(error instanceof Error ? error.message : String(error));
    }
  }

  createDirectory(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  writeFile(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
    this.held.clear();
  }

  private async download(uri: vscode.Uri, outer?: AbortSignal): Promise<Uint8Array> {
    const address = parseMediaUri(uri);
    if (!address) throw vscode.FileSystemError.FileNotFound(uri);
    const bytes = await withCancellableProgress({ title: vscode.l10n.t('Downloading {0}', address.name), signal: outer }, async (progress, signal) => {
      const media = await this.findMedia(address.profileId, address.galleryId, address.mediaId);
      if (!media) throw vscode.FileSystemError.FileNotFound(vscode.l10n.t('Media {0} is not in gallery {1} (any more).', address.mediaId, address.galleryId));
      const target: MediaTarget = { profileId: address.profileId, galleryId: address.galleryId, media };
      let reported = 0;
      const result = await this.files.download(target, {
        signal,
        name: address.name,
        onProgress: (received, total) => {
          if (total === undefined || total === 0) return progress.report({ message: `${Math.round(received / 1024)} KB` });
          const percent = Math.floor((received / total) * 100);
          progress.report({ increment: percent - reported, message: `${percent}%` });
          reported = percent;
        },
      });
      return result.bytes;
    });
    this.held.set(keyOf(uri), { bytes, mtime: Date.now() });
    this.reported.delete(keyOf(uri));
    this.log.info('media', `media ${address.mediaId} of gallery ${address.galleryId}: ${bytes.length} bytes`);
    this.trim(keyOf(uri));
    // An editor that asked for the file's size before it was here (the image preview's status bar
    // entry said 0 B) asks again.
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
    return bytes;
  }

  private async closeTabsShowing(uri: vscode.Uri): Promise<void> {
    const key = keyOf(uri);
    const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs.filter((tab) => tabUriKey(tab) === key));
    if (tabs.length === 0) return;
    await vscode.window.tabGroups.close(tabs).then(undefined, (error: unknown) => this.log.warn('media', 'could not close the tab of a declined download', error));
  }

  /**
   * Drops files no tab shows any more (a closed image preview frees its bytes). A file downloaded
   * a moment ago may not have its tab yet: it stays a while.
   */
  private dropUnshown(): void {
    const shown = shownUris();
    for (const key of [...this.reported]) if (!shown.has(key)) this.reported.delete(key);
    const fresh = Date.now() - FRESH_MS;
    for (const [key, entry] of [...this.held]) if (!shown.has(key) && entry.mtime < fresh) this.held.delete(key);
  }

  /** Keeps the total bounded: the oldest files that no tab shows go first, never `keep`. */
  private trim(keep: string): void {
    let total = [...this.held.values()].reduce((sum, entry) => sum + entry.bytes.length, 0);
    if (total <= MAX_HELD_BYTES) return;
    const shown = shownUris();
    for (const [key, entry] of this.held) {
      if (total <= MAX_HELD_BYTES) break;
      if (key === keep || shown.has(key)) continue;
      this.held.delete(key);
      total -= entry.bytes.length;
    }
  }
}

/**
 * One file, one key: the image preview asks for its file with a ?version=… query of its own, which
 * must not make it a different file (nor download it again).
 */
function keyOf(uri: vscode.Uri): string {
  return uri.with({ query: '', fragment: '' }).toString();
}

/** The key of the spot-media: file a tab shows, if it shows one (image and video previews are custom editors). */
function tabUriKey(tab: vscode.Tab): string | undefined {
  const uri = (tab.input as { uri?: unknown } | undefined)?.uri;
  return uri instanceof vscode.Uri && uri.scheme === MEDIA_SCHEME ? keyOf(uri) : undefined;
}

/** Every spot-media: address an open tab shows. */
function shownUris(): Set<string> {
  const shown = new Set<string>();
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const key = tabUriKey(tab);
      if (key) shown.add(key);
    }
  }
  return shown;
}
