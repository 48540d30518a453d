// Typed access to the extension's settings. VS Code hands out package.json's defaults
// (contributes.configuration); the fallbacks here only guard against a missing or hand-edited
// value, and keep ranges sane. Where the core has the default, the fallback is the core's, and
// test/unit/settingsManifest.test.ts holds package.json's literal to it.
import * as vscode from 'vscode';
// Constants from dependency-free core files: bundling them costs nothing at activation.
import { DEFAULT_FILE_FIELD_NAME } from '../../core/api/fileField';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY, MIN_CONCURRENCY } from '../../core/import/concurrency';
import {
  DEFAULT_ASSUMED_TOKEN_LIFETIME_SECONDS,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_REQUEST_DEADLINE_MS,
  DEFAULT_TOKEN_DEADLINE_MS,
} from '../../core/api/requestDefaults';

export const SETTINGS_SECTION = 'spotImport';

export interface SpotImportSettings {
  /** Multipart field that carries the media file in uploads. */
  fileFieldName: string;
  /** Imports running at once in Import Folder (MIN_CONCURRENCY..MAX_CONCURRENCY of the core). */
  bulkConcurrency: number;
  /** Lifetime assumed for tokens whose reply has no expires_in. */
  assumedTokenLifetimeSeconds: number;
  /**
   * e.g. https://files.example.org/{file}: the media URL template of profiles that have none of
   * their own (a profile's own template wins); empty: none.
   */
  mediaUrlTemplate: string;
  /** Media files larger than this many MB (1 MB = 1,048,576 bytes) are downloaded only when the user says so. */
  askBeforeDownloadMB: number;
  /** Idle time after which a request fails. */
  requestTimeoutSeconds: number;
  /** Overall time a token request may take, its reply included. */
  tokenTimeoutSeconds: number;
  /** Overall time one attempt of an import, gallery read or ordering may take (uploads: none). */
  requestDeadlineSeconds: number;
  /** Retries for 429, 503 and dropped connections. */
  maxRetries: number;
  /** Paths of PEM files with extra CA certificates to trust (a company proxy's or a private CA). */
  caCertificates: string[];
  /** Media workflow: write gallery ids and the final state into the document (false: the journal remembers them). */
  mediaWriteBack: boolean;
  /** Media workflow: the final import keeps the spot in progress (state 2) instead of active (1). */
  mediaKeepInProgress: boolean;
  /** Media workflow: set each gallery's media order to the files' name order. */
  mediaSetOrder: boolean;
  /** Media workflow: accepted MIME types or families; undefined (empty setting) means the core's DEFAULT_ACCEPTED_TYPES. */
  mediaAcceptedTypes: string[] | undefined;
}

function clampInt(value: unknown, fallback: number, min: number, max: number): number {
  const number = typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : fallback;
  return Math.min(max, Math.max(min, number));
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '') : [];
}

/** An empty or missing list falls back to the core's default (the one list lives there). */
function acceptedTypes(value: unknown): string[] | undefined {
  const list = stringList(value).map((entry) => entry.trim());
  return list.length > 0 ? list : undefined;
}

/**
 * `scope`: the document or folder the settings are for. The media settings (scope "resource") may
 * differ between the folders of a multi-root workspace; without a scope they are the workspace's.
 */
export function readSettings(scope?: vscode.Uri): SpotImportSettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION, scope);
  const fileFieldName = config.get<string>('fileFieldName', '').trim();
  return {
    fileFieldName: fileFieldName || DEFAULT_FILE_FIELD_NAME,
    bulkConcurrency: clampInt(config.get('bulkImport.concurrency'), DEFAULT_CONCURRENCY, MIN_CONCURRENCY, MAX_CONCURRENCY),
    assumedTokenLifetimeSeconds: clampInt(config.get('assumedTokenLifetimeSeconds'), DEFAULT_ASSUMED_TOKEN_LIFETIME_SECONDS, 30, 86_400),
    mediaUrlTemplate: config.get<string>('mediaUrlTemplate', '').trim(),
    askBeforeDownloadMB: clampInt(config.get('media.askBeforeDownloadMB'), 10, 0, 1024),
    requestTimeoutSeconds: clampInt(config.get('requestTimeoutSeconds'), DEFAULT_IDLE_TIMEOUT_MS / 1000, 5, 3600),
    tokenTimeoutSeconds: clampInt(config.get('tokenTimeoutSeconds'), DEFAULT_TOKEN_DEADLINE_MS / 1000, 5, 600),
    requestDeadlineSeconds: clampInt(config.get('requestDeadlineSeconds'), DEFAULT_REQUEST_DEADLINE_MS / 1000, 10, 3600),
    maxRetries: clampInt(config.get('maxRetries'), DEFAULT_MAX_RETRIES, 0, 10),
    caCertificates: stringList(config.get('caCertificates')),
    mediaWriteBack: config.get<boolean>('media.writeBack', true) !== false,
    mediaKeepInProgress: config.get<boolean>('media.keepInProgress', false) === true,
    mediaSetOrder: config.get<boolean>('media.setOrder', true) !== false,
    mediaAcceptedTypes: acceptedTypes(config.get('media.acceptedTypes')),
  };
}

/** Settings that change what the media check of a spot document reports. */
export function affectsMediaCheck(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration(`${SETTINGS_SECTION}.media.acceptedTypes`);
}

/** Settings that change what media rows link to and how their files are fetched. */
export function affectsMediaFiles(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration(`${SETTINGS_SECTION}.mediaUrlTemplate`);
}

/** True when a change touches anything that shapes a ServiceClient (so cached clients are rebuilt). */
export function affectsClients(event: vscode.ConfigurationChangeEvent): boolean {
  return (
    [
      'fileFieldName',
      'assumedTokenLifetimeSeconds',
      'requestTimeoutSeconds',
      'tokenTimeoutSeconds',
      'requestDeadlineSeconds',
      'maxRetries',
      'caCertificates',
    ].some((key) => event.affectsConfiguration(`${SETTINGS_SECTION}.${key}`)) ||
    event.affectsConfiguration('http.proxy') ||
    event.affectsConfiguration('http.noProxy') ||
    event.affectsConfiguration('http.proxyStrictSSL')
  );
}
