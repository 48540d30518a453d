// Uploads files one after another into one gallery, and keeps an exact account of each file:
// arrived, failed, interrupted, or never sent. That account is what the user is told, so after a
// cancel or a failure they know which files to send again, and which ones to check first.
//
// A run belongs to the profile it started with: every file goes to that profile's service, even
// if the user switches profile while it runs (the same gallery id on another service would be
// another gallery).
import { promises as fs } from 'node:fs';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { isCancellation } from '../../platform/cancellation';
import { describeError, isServiceError } from '../../platform/errors';
import type { ExtensionServices } from '../../platform/services';

/**
 * - arrived: the service answered success.
 * - failed: the service refused it, or the request broke before the whole file was handed over
 *   (a multipart body without its end cannot be stored): safe to send again.
 * - interrupted: the connection broke, timed out or was cancelled after the whole file had been
 *   handed over, before the answer came. It may have arrived: check the gallery before sending
 *   it again, so it is not part of "Upload the Rest".
 * - notSent: never sent, or cancelled part-way through its body (so it cannot have arrived).
 * - skipped: not a file.
 */
export type FileStatus = 'arrived' | 'failed' | 'interrupted' | 'notSent' | 'skipped';

export interface FileOutcome {
  uri: vscode.Uri;
  name: string;
  bytes: number;
  status: FileStatus;
  /** Why it failed or was skipped, in words for the user. */
  reason?: string;
  /**
   * Bytes of the file read into the request body in the last attempt, as the core reported them
   * (undefined until it reports any; an empty file never reports). For progress only: whether the
   * file went out complete is the core's to say (see mayHaveArrived).
   */
  sentBytes?: number;
}

export interface UploadOutcome {
  galleryId: number;
  profileId: string;
  files: FileOutcome[];
  cancelled: boolean;
  /** The failure that stopped the run (later files were not sent). */
  stoppedBy?: unknown;
}

export interface UploadHooks {
  /** Called with a line such as "photo.jpg 3.2 of 10.0 MB (2 of 5 files)" and the share done (0..1). */
  onProgress?(message: string, done: number): void;
  /** Called after each file has an outcome; the next file waits for a returned promise. */
  onFileDone?(file: FileOutcome, index: number): void | Promise<void>;
}

/**
 * Whether the service may have stored the file although the upload failed: the core says how far
 * its last attempt got (details.requestSent; a failure without it came before anything was sent).
 * The whole body went out and no answer came, or a success answer came and then its reading
 * broke. A body that went out only in part cannot be stored, and a refusal stored nothing.
 */
function mayHaveArrived(error: unknown): boolean {
  if (!isServiceError(error)) return false;
  if (error.requestSent === 'whole') return true;
  return error.requestSent === 'answered' && error.kind !== 'http' && error.status !== undefined && error.status >= 200 && error.status < 300;
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** "3.2 of 10.0 MB": both numbers in the unit that suits the file's size. */
export function formatBytesPair(sent: number, total: number): string {
  const exponent = total < 1024 ? 0 : Math.min(UNITS.length - 1, Math.floor(Math.log(total) / Math.log(1024)));
  const scale = 1024 ** exponent;
  const format = (value: number) => (exponent === 0 ? String(value) : (value / scale).toFixed(1));
  return `${format(sent)} of ${format(total)} ${UNITS[exponent]}`;
}

/** A rejected file (415, 413, 422…) says nothing about the next one; anything else would repeat. */
function affectsOnlyThisFile(error: unknown): boolean {
  if (!isServiceError(error) || error.kind !== 'http' || error.status === undefined) return false;
  return error.status >= 400 && error.status < 500 && ![401, 403, 404, 408, 429].includes(error.status);
}

async function describeFiles(uris: vscode.Uri[]): Promise<FileOutcome[]> {
  return Promise.all(
    uris.map(async (uri): Promise<FileOutcome> => {
      const name = basename(uri.fsPath);
      try {
        const stat = await fs.stat(uri.fsPath);
        if (!stat.isFile()) return { uri, name, bytes: 0, status: 'skipped', reason: 'not a file' };
        return { uri, name, bytes: stat.size, status: 'notSent' };
      } catch (error) {
        return { uri, name, bytes: 0, status: 'skipped', reason: describeError(error) };
      }
    }),
  );
}

/**
 * Uploads into `galleryId` of `profileId` (default: the profile active now). The profile is fixed
 * for the whole run: each file asks for that profile's client, never the active one.
 */
export async function uploadFiles(
  services: ExtensionServices,
  galleryId: number,
  uris: vscode.Uri[],
  signal: AbortSignal,
  hooks: UploadHooks = {},
  profileId?: string,
): Promise<UploadOutcome> {
  const files = await describeFiles(uris);
  const { profile } = profileId !== undefined ? await services.clients.clientFor(profileId) : await services.clients.client();
  const outcome: UploadOutcome = { galleryId, profileId: profile.id, files, cancelled: false };
  const sendable = files.filter((file) => file.status === 'notSent');
  const totalBytes = sendable.reduce((sum, file) => sum + file.bytes, 0);
  let doneBytes = 0;

  for (const [index, file] of sendable.entries()) {
    if (signal.aborted) {
      outcome.cancelled = true;
      break;
    }
    const position = `(${index + 1} of ${sendable.length} files)`;
    let reportedAt = 0;
    const report = (sent: number) => {
      // Chunks arrive every few KB; a notification redrawn ten times a second is plenty.
      const now = Date.now();
      if (sent !== 0 && sent !== file.bytes && now - reportedAt < 100) return;
      reportedAt = now;
      const done = totalBytes > 0 ? (doneBytes + sent) / totalBytes : index / sendable.length;
      hooks.onProgress?.(`${file.name} ${formatBytesPair(sent, file.bytes)} ${position}`, done);
    };
    report(0);
    file.sentBytes = undefined;
    try {
      // Asked per file, for the run's own profile: the provider rebuilds a profile's client when
      // its credentials or settings change, and a long run must go on with the new one.
      const { client } = await services.clients.clientFor(outcome.profileId);
      await client.uploadMedia(galleryId, file.uri.fsPath, {
        signal,
        onProgress: (sent) => {
          file.sentBytes = sent;
          report(sent);
        },
      });
      file.status = 'arrived';
      services.log.info('upload', `${file.name} (${file.bytes} bytes) arrived in gallery ${galleryId}`);
    } catch (error) {
      const cancelled = signal.aborted || isCancellation(error);
      if (cancelled) outcome.cancelled = true;
      else if (!affectsOnlyThisFile(error)) outcome.stoppedBy = error;
      if (mayHaveArrived(error)) {
        // The body went out complete and the answer never came: the service may have stored it.
        file.status = 'interrupted';
        file.reason = cancelled ? 'cancelled while waiting for the answer' : `no answer: ${describeError(error)}`;
        services.log.warn('upload', `${file.name} may or may not have arrived in gallery ${galleryId} (${file.reason})`);
      } else if (cancelled) {
        // Cancelled before the whole body went out: the service cannot have stored it.
        file.status = 'notSent';
        file.reason = 'cancelled while sending';
      } else {
        file.status = 'failed';
        file.reason = describeError(error);
        services.log.warn('upload', `${file.name} did not arrive in gallery ${galleryId}: ${file.reason}`);
      }
    }
    doneBytes += file.bytes;
    await hooks.onFileDone?.(file, index);
    if (outcome.cancelled || outcome.stoppedBy) break;
  }
  return outcome;
}
