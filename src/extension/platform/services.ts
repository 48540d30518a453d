// The few long-lived services that activate() builds and every feature receives. Features depend
// on these interfaces, so tests can hand in real implementations with a scripted UI layer. What
// they deal in (profiles, credentials, known galleries and their stores) is in ./domain.ts. The
// Galleries view is not one of them: it is built after these, and commands that need it get it
// as a parameter (src/extension/commands/commandTable.ts), so nothing here depends on a feature.
import type * as vscode from 'vscode';
import type * as Core from '../../core';
import type { CredentialStore, GalleryStore, Profile, ProfileStore } from './domain';
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
  /** The window's open import journals, shared by its runs; made with the first import, disposed at deactivation. */
  journalAccounts(): Promise<Core.JournalAccounts>;
}
