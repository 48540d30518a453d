// Uploads files one after another into one gallery, and keeps an exact account of each file:
// arrived, failed, interrupted by a cancel, or never sent. That account is what the user is told,
// so after a cancel or a failure they know which files to send again.
import { promises as fs } from 'node:fs';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { isCancellation } from '../../platform/cancellation';
import { describeError, isServiceError } from '../../platform/errors';
import type { ExtensionServices } from '../../platform/services';

export type FileStatus = 'arrived' | 'failed' | 'interrupted' | 'notSent' | 'skipped';

export interface FileOutcome {
  uri: vscode.Uri;
  name: string;
  bytes: number;
  status: FileStatus;
  /** Why it failed or was skipped, in words for the user. */
  reason?: string;
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
  /** Called after each file has an outcome. */
  onFileDone?(file: FileOutcome, index: number): void;
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

export async function uploadFiles(
  services: ExtensionServices,
  galleryId: number,
  uris: vscode.Uri[],
  signal: AbortSignal,
  hooks: UploadHooks = {},
): Promise<UploadOutcome> {
  const files = await describeFiles(uris);
  const { profile } = await services.clients.client();
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
    try {
      // Asked per file: the provider rebuilds its client when credentials or settings change,
      // and a long run of uploads must go on with the new one.
      const { client } = await services.clients.client();
      await client.uploadMedia(galleryId, file.uri.fsPath, { signal, onProgress: (sent) => report(sent) });
      file.status = 'arrived';
      services.log.info('upload', `${file.name} (${file.bytes} bytes) arrived in gallery ${galleryId}`);
    } catch (error) {
      if (signal.aborted || isCancellation(error)) {
        file.status = 'interrupted';
        file.reason = 'cancelled while sending';
        outcome.cancelled = true;
      } else {
        file.status = 'failed';
        file.reason = describeError(error);
        services.log.warn('upload', `${file.name} did not arrive in gallery ${galleryId}: ${file.reason}`);
        if (!affectsOnlyThisFile(error)) outcome.stoppedBy = error;
      }
    }
    doneBytes += file.bytes;
    hooks.onFileDone?.(file, index);
    if (outcome.cancelled || outcome.stoppedBy) break;
  }
  return outcome;
}
