// Fetches media files from a profile's files host for the views: whole files for the read-only
// file system (with the size question), small images as data URIs for tooltips. The files host is
// public, so no token is sent; requests go through a dispatcher built from the same proxy and
// certificate settings as the service client's (one rule: httpOptionsFromVsCode).
import * as vscode from 'vscode';
import type { Dispatcher } from 'undici';
import type * as Core from '../../../core';
import { httpOptionsFromVsCode } from '../../platform/httpOptions';
import { sharedRedactor } from '../../platform/redact';
import type { ExtensionServices } from '../../platform/services';
import type { Profile } from '../../platform/domain';
import { affectsClients, readSettings } from '../../platform/settings';
import { mediaUrlTemplateFor, noTemplateError } from './mediaTemplate';

/** One media item of one gallery of one profile: what it takes to find its file. */
export interface MediaTarget {
  profileId: string;
  galleryId: number;
  media: Core.Media;
}

/** Tooltip images travel inside the tooltip's Markdown: only small ones. */
const THUMBNAIL_MAX_BYTES = 256 * 1024;
const THUMBNAILS_KEPT = 100;

export class MediaFiles implements vscode.Disposable {
  private dispatcher?: Promise<Dispatcher>;
  /** Data URIs (or '' for "none") by profile, media id and file name, newest last. */
  private readonly thumbnails = new Map<string, string>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly services: ExtensionServices) {
    this.subscription = vscode.workspace.onDidChangeConfiguration((event) => {
      if (affectsClients(event)) this.resetDispatcher();
    });
  }

  /** The profile as it is now; the sandbox started first, since its address is part of its template. */
  async profileFor(profileId: string): Promise<Profile> {
    const profile = this.services.profiles.get(profileId);
    if (!profile) throw new Error(vscode.l10n.t('The profile of this media file was removed.'));
    if (profile.kind === 'sandbox' && !profile.mediaUrlTemplate) return (await this.services.clients.clientFor(profileId)).profile;
    return profile;
  }

  /** The file's address on the files host; throws with a "Set Media URL Template…" button when there is no template. */
  async urlFor(target: MediaTarget): Promise<URL> {
    const profile = await this.profileFor(target.profileId);
    const template = mediaUrlTemplateFor(profile);
    if (!template) throw noTemplateError(profile);
    return (await this.services.core()).mediaFileUrl(template, target.media);
  }

  /**
   * The whole file. Above spotImport.media.askBeforeDownloadMB the user is asked first (no: a
   * cancellation, which the command wrapper keeps quiet about).
   */
  async download(target: MediaTarget, options: { signal?: AbortSignal; onProgress?: (received: number, total: number | undefined) => void; name: string }): Promise<Core.DownloadedMedia> {
    const url = await this.urlFor(target);
    const core = await this.services.core();
    const askAbove = readSettings().askBeforeDownloadMB * 1024 * 1024;
    this.services.log.info('media', `downloading media ${target.media.id} of gallery ${target.galleryId} from ${url.host}`);
    return core.downloadMedia(url, {
      dispatcher: await this.getDispatcher(),
      signal: options.signal,
      onProgress: options.onProgress,
      askAboveBytes: askAbove,
      confirmLarge: (announced) => this.confirmLarge(options.name, announced, askAbove, core),
      what: vscode.l10n.t({ message: 'Downloading {0}', args: [options.name], comment: ['The subject of the core\'s failure sentences, e.g. "Downloading x failed with HTTP 404": a noun phrase'] }),
      redactor: sharedRedactor,
    });
  }

  /**
   * A picture for a tooltip: an https address as it is (the workbench loads it), or a small image
   * fetched here and handed over as a data URI (the workbench loads no http: images, and a data
   * URI also works when this extension runs on another machine than the window). undefined when
   * there is none to show; never asks and never throws.
   */
  async thumbnail(target: MediaTarget, signal?: AbortSignal): Promise<string | undefined> {
    const type = target.media.mimeType.toLowerCase();
    // VS Code shows no SVG inside tooltips, and other kinds are no pictures.
    if (!type.startsWith('image/') || type.includes('svg')) return undefined;
    let url: URL;
    try {
      url = await this.urlFor(target);
    } catch {
      return undefined;
    }
    if (url.protocol === 'https:') return url.toString();
    const key = `${target.profileId}\u0000${target.media.id}\u0000${target.media.file}`;
    const kept = this.thumbnails.get(key);
    if (kept !== undefined) return kept || undefined;
    let dataUri = '';
    try {
      const core = await this.services.core();
      const { bytes } = await core.downloadMedia(url, { dispatcher: await this.getDispatcher(), signal, maxBytes: THUMBNAIL_MAX_BYTES, askAboveBytes: THUMBNAIL_MAX_BYTES, redactor: sharedRedactor });
      dataUri = `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;
    } catch (error) {
      if (signal?.aborted) return undefined;
      this.services.log.info('media', `no tooltip picture for media ${target.media.id}: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.thumbnails.set(key, dataUri);
    if (this.thumbnails.size > THUMBNAILS_KEPT) this.thumbnails.delete(this.thumbnails.keys().next().value!);
    return dataUri || undefined;
  }

  dispose(): void {
    this.subscription.dispose();
    this.resetDispatcher();
    this.thumbnails.clear();
  }

  private async confirmLarge(name: string, announced: number | undefined, askAbove: number, core: typeof Core): Promise<boolean> {
    const limit = core.formatBytes(askAbove);
    const question =
      announced === undefined
        ? vscode.l10n.t('{0} is larger than {1} (the files host did not say how large). Download it to show it here?', name, limit)
        : vscode.l10n.t('{0} is {1}. Download it to show it here?', name, core.formatBytes(announced));
    const download = vscode.l10n.t('Download');
    const answer = await this.services.ui.showWarningMessage(
      question,
      { modal: true, detail: vscode.l10n.t('Files larger than {0} are downloaded only when you say so (setting spotImport.media.askBeforeDownloadMB). The file is held in memory while it is open.', limit) },
      download,
    );
    return answer === download;
  }

  private getDispatcher(): Promise<Dispatcher> {
    if (!this.dispatcher) {
      const building = this.services.core().then(async (core) => core.createDispatcher(await httpOptionsFromVsCode(core, readSettings())));
      this.dispatcher = building;
      // A failed build (an unreadable CA file) must not stick.
      building.catch(() => {
        if (this.dispatcher === building) this.dispatcher = undefined;
      });
    }
    return this.dispatcher;
  }

  private resetDispatcher(): void {
    const old = this.dispatcher;
    this.dispatcher = undefined;
    this.thumbnails.clear();
    void old?.then((dispatcher) => dispatcher.close()).catch(() => undefined);
  }
}
