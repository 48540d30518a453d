// Uploads files into one gallery through the core's one upload policy (uploadFilesToGallery: one
// at a time, each failure classified once, never sent twice blindly), after the check import
// makes of media (a file, not empty, a type the gallery accepts), and keeps an exact account of
// each file: arrived, failed, interrupted, not sent, or skipped. That account is what the user is
// told, so after a cancel or a failure they know which files to send again, and which ones to
// check first.
//
// A run belongs to the profile it started with: every file goes to that profile's service, even
// if the user switches profile while it runs (the same gallery id on another service would be
// another gallery).
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type * as Core from '../../../core';
import { formatDecimal } from '../../../core/text/l10n';
import { describeError } from '../../platform/errors';
import type { ExtensionServices } from '../../platform/services';
import { readSettings } from '../../platform/settings';

/**
 * - arrived: the service has it.
 * - failed: the service refused it, or the request broke before the whole file was handed over
 *   (a multipart body without its end cannot be stored): safe to send again.
 * - interrupted: the whole file was handed over and no answer came (the connection broke, timed
 *   out or was cancelled). It may have arrived: check the gallery before sending it again, so it
 *   is not part of "Upload the Rest".
 * - notSent: never sent, or cancelled part-way through its body (so it cannot have arrived).
 * - skipped: not fit for a gallery (not a file, empty, a type not accepted).
 */
export type FileStatus = 'arrived' | 'failed' | 'interrupted' | 'notSent' | 'skipped';

export interface FileOutcome {
  uri: vscode.Uri;
  name: string;
  bytes: number;
  status: FileStatus;
  /** Why it failed or was skipped, in words for the user. */
  reason?: string;
  /** Bytes of the file read into the request body in the last attempt (for progress only). */
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

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** "3.2 of 10.0 MB" ("3,2 von 10,0 MB" in German): both numbers in the unit that suits the file's size. */
function formatBytesPair(sent: number, total: number): string {
  const exponent = total < 1024 ? 0 : Math.min(UNITS.length - 1, Math.floor(Math.log(total) / Math.log(1024)));
  const scale = 1024 ** exponent;
  const format = (value: number) => (exponent === 0 ? String(value) : formatDecimal(value / scale, 1));
  return vscode.l10n.t('{0} of {1} {2}', format(sent), format(total), UNITS[exponent]);
}

/** Each file checked as import checks media; the ones not fit for a gallery are skipped, with the reason. */
async function describeFiles(core: typeof Core, uris: vscode.Uri[], acceptedTypes: readonly string[]): Promise<FileOutcome[]> {
  return Promise.all(
    uris.map(async (uri): Promise<FileOutcome> => {
      const name = basename(uri.fsPath);
      const verdict = await core.checkMediaFile(uri.fsPath, name, acceptedTypes);
      if (!verdict.ok) return { uri, name, bytes: 0, status: 'skipped', reason: verdict.problem.replace(/\.$/, '') };
      return { uri, name, bytes: verdict.stats.size, status: 'notSent' };
    }),
  );
}

/** The core's account of a file, in the words of this view. */
function applyResult(file: FileOutcome, result: Core.UploadedFile<Core.UploadItem>, cancelled: boolean): void {
  const failure = result.failure;
  if (result.status === 'arrived') {
    file.status = 'arrived';
  } else if (result.status === 'unsure') {
    // The body went out complete and the answer never came: the service may have stored it.
    file.status = 'interrupted';
    file.reason = cancelled ? 'cancelled while waiting for the answer' : `no answer: ${describeError(failure?.error)}`;
  } else if (result.status === 'not-sent' || failure?.kind === 'cancelled') {
    // Cancelled before the whole body went out (or never sent): the service cannot have stored it.
    file.status = 'notSent';
    if (failure) file.reason = 'cancelled while sending';
  } else {
    file.status = 'failed';
    file.reason = describeError(failure?.error);
  }
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
  const core = await services.core();
  const files = await describeFiles(core, uris, readSettings(uris[0]).mediaAcceptedTypes ?? core.DEFAULT_ACCEPTED_TYPES);
  const { profile } = profileId !== undefined ? await services.clients.clientFor(profileId) : await services.clients.client();
  const outcome: UploadOutcome = { galleryId, profileId: profile.id, files, cancelled: false };
  const sendable = files.filter((file) => file.status === 'notSent');
  const totalBytes = sendable.reduce((sum, file) => sum + file.bytes, 0);
  let doneBytes = 0;
  let reportedAt = 0;
  const report = (index: number, file: FileOutcome, sent: number) => {
    // Chunks arrive every few KB; a notification redrawn ten times a second is plenty.
    const now = Date.now();
    if (sent !== 0 && sent !== file.bytes && now - reportedAt < 100) return;
    reportedAt = now;
    const done = totalBytes > 0 ? (doneBytes + sent) / totalBytes : index / sendable.length;
    hooks.onProgress?.(vscode.l10n.t('{0} {1} ({2} of {3} files)', file.name, formatBytesPair(sent, file.bytes), index + 1, sendable.length), done);
  };
  const items = sendable.map((file, index) => ({ path: file.uri.fsPath, outcome: file, index }));
  if (items[0]) report(0, items[0].outcome, 0);
  const run = await core.uploadFilesToGallery({
    // Asked per file, for the run's own profile: the provider rebuilds a profile's client when its
    // credentials or settings change, and a long run must go on with the new one.
    client: async () => (await services.clients.clientFor(outcome.profileId)).client,
    galleryId,
    files: items,
    signal,
    abortSignal: signal,
    onBytes: (item, sent) => {
      item.outcome.sentBytes = sent;
      report(item.index, item.outcome, sent);
    },
    onFile: async (result, index) => {
      const file = result.file.outcome;
      applyResult(file, result, signal.aborted);
      if (file.status === 'arrived') services.log.info('upload', `${file.name} (${file.bytes} bytes) arrived in gallery ${galleryId}`);
      else if (file.status === 'interrupted') services.log.warn('upload', `${file.name} may or may not have arrived in gallery ${galleryId} (${file.reason})`);
      else if (file.status === 'failed') services.log.warn('upload', `${file.name} did not arrive in gallery ${galleryId}: ${file.reason}`);
      doneBytes += file.bytes;
      if (items[index + 1]) report(index + 1, items[index + 1].outcome, 0);
      await hooks.onFileDone?.(file, index);
    },
  });
  if (run.stop?.kind === 'cancelled') outcome.cancelled = true;
  else if (run.stop) outcome.stoppedBy = run.stop.error;
  return outcome;
}
