// The few long-lived services that activate() builds and every feature receives. Features depend
// on these interfaces, so tests can hand in real implementations with a scripted UI layer.
import type * as vscode from 'vscode';
import type * as Core from '../core';
import type { GalleriesView } from '../views/galleriesView';
import type { DisposableStore } from './lifecycle';

/** Secret-free logging into the one LogOutputChannel; every line passes through redaction. */
export interface Logger {
  trace(component: string, message: string, ...details: unknown[]): void;
  info(component: string, message: string, ...details: unknown[]): void;
  warn(component: string, message: string, ...details: unknown[]): void;
  error(component: string, message: string, ...details: unknown[]): void;
  /** Adds a value (a token, a secret) that must never appear in the log. */
  addSecret(value: string): void;
  show(): void;
}

/**
 * Every prompt goes through here. Production forwards to vscode.window; tests install a scripted
 * implementation that fails the test on any prompt it did not expect.
 */
export interface UiPrompts {
  showQuickPick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions & { canPickMany?: false }): Promise<T | undefined>;
  showQuickPickMany<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<readonly T[] | undefined>;
  showInputBox(options: vscode.InputBoxOptions): Promise<string | undefined>;
  showOpenDialog(options: vscode.OpenDialogOptions): Promise<vscode.Uri[] | undefined>;
  showInformationMessage(message: string, ...buttons: string[]): Promise<string | undefined>;
  showWarningMessage(message: string, options: { modal?: boolean; detail?: string }, ...buttons: string[]): Promise<string | undefined>;
  showErrorMessage(message: string, ...buttons: string[]): Promise<string | undefined>;
}

export type ProfileKind = 'remote' | 'sandbox';

export interface Profile {
  /** Stable id; the built-in sandbox profile's id is SANDBOX_PROFILE_ID. */
  id: string;
  name: string;
  kind: ProfileKind;
  baseUrl: string;
  /** Absent: derived from baseUrl as {baseUrl}/api/v2/access_token. */
  tokenUrl?: string;
  apiVersion: string;
  topicId?: number;
  /**
   * Where the files host serves a media file: an https address with {file} (the name the gallery
   * lists) and/or {id} (the media id). Absent: the spotImport.mediaUrlTemplate setting applies.
   * The sandbox profile's is set from the running sandbox's address.
   */
  mediaUrlTemplate?: string;
}

export const SANDBOX_PROFILE_ID = 'local-sandbox';

export type ProfileState = 'noCredentials' | 'ready' | 'rejected';

export interface ProfileStore {
  readonly onDidChange: vscode.Event<void>;
  list(): Profile[];
  active(): Profile | undefined;
  state(profile: Profile): Promise<ProfileState>;
  get(id: string): Profile | undefined;
  /** Adds a remote profile (URLs checked: https, or http only for loopback). */
  add(input: Omit<Profile, 'id' | 'kind'>): Promise<Profile>;
  remove(id: string): Promise<void>;
  /** Sets (or, with '' or undefined, clears) a remote profile's media URL template (checked first). */
  setMediaUrlTemplate(id: string, template: string | undefined): Promise<void>;
  /** undefined: no active profile (the welcome view asks for one). */
  setActive(id: string | undefined): Promise<void>;
}

/** How a profile is shown everywhere: the built-in sandbox is always marked "(sandbox)". */
export function profileLabel(profile: Pick<Profile, 'name' | 'kind'>): string {
  return profile.kind === 'sandbox' ? `${profile.name} (sandbox)` : profile.name;
}

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

/** Client credentials per profile, only ever in SecretStorage. */
export interface CredentialStore {
  /** Fires with the profile id whose credentials changed (in this or another window). */
  readonly onDidChange: vscode.Event<string>;
  get(profileId: string): Promise<Credentials | undefined>;
  set(profileId: string, credentials: Credentials): Promise<void>;
  delete(profileId: string): Promise<void>;
}

/** Hands out a ServiceClient for the active profile (starting the sandbox for the sandbox profile). */
export interface ClientProvider {
  client(): Promise<{ profile: Profile; client: Core.ServiceClient }>;
  /**
   * The client of one given profile, active or not: long runs (a multi-file upload) keep talking
   * to the service they started with even if the user switches profile meanwhile.
   */
  clientFor(profileId: string): Promise<{ profile: Profile; client: Core.ServiceClient }>;
  /** A new token for the active profile, fetched now (Test Connection). */
  freshToken(signal?: AbortSignal): Promise<{ profile: Profile; token: Core.AccessToken }>;
  /** Drops cached clients and tokens (one profile, or all). */
  forget(profileId?: string): void;
}

/** Where a known gallery came from: an import's pending gallery, or added by id. */
export interface KnownGallery {
  galleryId: number;
  /** documentUri: the spot document the import read (Uri.toString()), for Mark Spot Active; absent for older entries. */
  spot?: { spotId: number; sourceId: string; documentUri?: string };
  field?: string;
  /** True while it came back as pending from an import and has no upload recorded yet. */
  pending: boolean;
}

/** The galleries the user knows, remembered per profile (globalState). */
export interface GalleryStore {
  readonly onDidChange: vscode.Event<void>;
  list(profileId: string): KnownGallery[];
  add(profileId: string, galleries: KnownGallery[]): Promise<void>;
  remove(profileId: string, galleryId: number): Promise<void>;
  markUploaded(profileId: string, galleryId: number): Promise<void>;
}

export interface ExtensionServices {
  context: vscode.ExtensionContext;
  /** Owns what the features register: disposed in reverse at deactivation, the log last. */
  disposables: DisposableStore;
  log: Logger;
  ui: UiPrompts;
  profiles: ProfileStore;
  credentials: CredentialStore;
  clients: ClientProvider;
  galleries: GalleryStore;
  /** Loads dist/core.js on first use (undici and zod stay out of activation). */
  core(): Promise<typeof Core>;
  /** Set by registerGalleriesView: gallery commands and tests reach the tree through it. */
  galleriesView?: GalleriesView;
}
