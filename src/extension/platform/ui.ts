// Every prompt goes through services.ui. In production it forwards to vscode.window; the holder
// lets integration tests swap in a scripted implementation (test/integration/helpers/scriptedUi.ts)
// without the commands knowing, so the real handlers run end to end. The holder also passes every
// message it shows through the log's redactor: whatever a message quotes (a server's words, an
// error), no registered secret or token reaches the screen.
import * as vscode from 'vscode';
import { redactForDisplay } from './redact';
import type { UiPrompts } from './services';

/** Forwards each prompt to vscode.window. Thenables become Promises so callers can chain. */
class WindowUi implements UiPrompts {
  async showQuickPick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions & { canPickMany?: false }): Promise<T | undefined> {
    return vscode.window.showQuickPick(items, options);
  }

  async showQuickPickMany<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<readonly T[] | undefined> {
    return vscode.window.showQuickPick(items, { ...options, canPickMany: true });
  }

  async showInputBox(options: vscode.InputBoxOptions): Promise<string | undefined> {
    return vscode.window.showInputBox({ ignoreFocusOut: true, ...options });
  }

  async showOpenDialog(options: vscode.OpenDialogOptions): Promise<vscode.Uri[] | undefined> {
    return vscode.window.showOpenDialog(options);
  }

  async showInformationMessage(message: string, ...buttons: string[]): Promise<string | undefined> {
    return vscode.window.showInformationMessage(message, ...buttons);
  }

  async showWarningMessage(message: string, options: { modal?: boolean; detail?: string }, ...buttons: string[]): Promise<string | undefined> {
    return vscode.window.showWarningMessage(message, options, ...buttons);
  }

  async showErrorMessage(message: string, ...buttons: string[]): Promise<string | undefined> {
    return vscode.window.showErrorMessage(message, ...buttons);
  }
}

/** A UiPrompts whose implementation can be replaced for a while (tests only do this). */
export class UiHolder implements UiPrompts {
  private implementation: UiPrompts;

  constructor(private readonly fallback: UiPrompts = new WindowUi()) {
    this.implementation = fallback;
  }

  /** Uses `implementation` until the returned handle is disposed. */
  use(implementation: UiPrompts): vscode.Disposable {
    const previous = this.implementation;
    this.implementation = implementation;
    return new vscode.Disposable(() => {
      if (this.implementation === implementation) this.implementation = previous ?? this.fallback;
    });
  }

  showQuickPick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions & { canPickMany?: false }): Promise<T | undefined> {
    return this.implementation.showQuickPick(items, options);
  }

  showQuickPickMany<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<readonly T[] | undefined> {
    return this.implementation.showQuickPickMany(items, options);
  }

  showInputBox(options: vscode.InputBoxOptions): Promise<string | undefined> {
    return this.implementation.showInputBox(options);
  }

  showOpenDialog(options: vscode.OpenDialogOptions): Promise<vscode.Uri[] | undefined> {
    return this.implementation.showOpenDialog(options);
  }

  showInformationMessage(message: string, ...buttons: string[]): Promise<string | undefined> {
    return this.implementation.showInformationMessage(redactForDisplay(message), ...buttons);
  }

  showWarningMessage(message: string, options: { modal?: boolean; detail?: string }, ...buttons: string[]): Promise<string | undefined> {
    const detail = options.detail === undefined ? {} : { detail: redactForDisplay(options.detail) };
    return this.implementation.showWarningMessage(redactForDisplay(message), { ...options, ...detail }, ...buttons);
  }

  showErrorMessage(message: string, ...buttons: string[]): Promise<string | undefined> {
    return this.implementation.showErrorMessage(redactForDisplay(message), ...buttons);
  }
}
