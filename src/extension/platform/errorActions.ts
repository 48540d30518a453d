// The one policy from a failure to the buttons that fix it, for every place that shows one: the
// command wrapper's notifications, the imports' and uploads' summaries, and the Galleries view's
// message nodes. An ActionableError's own actions, Open Settings for an untrusted certificate,
// Update Credentials (for the profile whose request failed, when known) for a refusal: credentials
// refused (401, or the token endpoint) or a request these credentials may not make (403); then
// what the caller offers for a thing not found, a profile set up wrongly, or a failure worth
// another try. And the one way such a message is shown, with its buttons run when clicked.
import * as vscode from 'vscode';
import { ActionableError, OPEN_CA_SETTINGS, isAuthenticationError, isServiceError, profileOf, untrustedCertificateCode, type ErrorAction } from './errors';
import { COMMAND } from './commandIds';
import type { Logger, UiPrompts } from './services';

/** The buttons' titles, in VS Code's display language: read when a button is made, not when this module loads. */
const showLogTitle = (): string => vscode.l10n.t('Show Log');
const updateCredentialsTitle = (): string => vscode.l10n.t('Update Credentials');
const setCredentialsTitle = (): string => vscode.l10n.t('Set Client Credentials');

/** Set Client Credentials for one profile (absent: the active one), after a refusal. */
function updateCredentialsAction(profileId?: string): ErrorAction {
  return { title: updateCredentialsTitle(), command: COMMAND.setCredentials, ...(profileId ? { args: [profileId] } : {}) };
}

/** Set Client Credentials for a profile that has none yet. */
export function setCredentialsAction(profileId: string): ErrorAction {
  return { title: setCredentialsTitle(), command: COMMAND.setCredentials, args: [profileId] };
}

/**
 * Refused for a profile's credentials: not accepted (401, or the token endpoint), or not allowed
 * this (a 403 to a request that carried the profile's token: its client notes those). A file
 * host, which is sent no token, may answer 403 too; new credentials would not change that.
 */
function isRefusal(error: unknown): boolean {
  if (isAuthenticationError(error)) return true;
  return isServiceError(error) && error.kind === 'http' && error.status === 403 && profileOf(error) !== undefined;
}

/** What a caller can offer beyond the policy's own buttons, for the failures it knows how to meet. */
export interface ActionContext {
  /** The profile the failed work used, when the caller knows it better than the error does. */
  profileId?: string;
  /** For what was asked for and is not there (404). */
  notFound?: ErrorAction;
  /** For a setting of the profile that is wrong (its address): new credentials would not help. */
  configuration?: ErrorAction;
  /** For a failure that may pass when tried again (the network, a timeout, the service's own error). */
  retry?: ErrorAction;
}

/** What to offer for a failure, most specific first. */
export function actionsFor(error: unknown, context: ActionContext = {}): ErrorAction[] {
  const actions: ErrorAction[] = error instanceof ActionableError ? [...error.actions] : [];
  if (untrustedCertificateCode(error)) actions.push(OPEN_CA_SETTINGS);
  if (isRefusal(error)) actions.push(updateCredentialsAction(profileOf(error) ?? context.profileId));
  if (!isServiceError(error) || isRefusal(error)) return actions;
  const offered =
    error.kind === 'http' && error.status === 404
      ? context.notFound
      : error.kind === 'configuration'
        ? context.configuration
        : error.kind !== 'authentication'
          ? context.retry
          : undefined;
  if (offered) actions.push(offered);
  return actions;
}

/** A button of a message: a command to run, or the caller's own step (a pick of the run's results). */
export type MessageButton = ErrorAction | { title: string; run(): unknown };

/**
 * Shows a message with its buttons (an error also gets Show Log) and runs the one clicked,
 * whenever it is clicked: the command that shows it has finished by then, and does not wait.
 */
export function showMessage(
  services: { ui: UiPrompts; log: Logger },
  severity: 'info' | 'warning' | 'error',
  message: string,
  buttons: readonly MessageButton[] = [],
): void {
  const showLog = showLogTitle();
  const titles = [...buttons.map((button) => button.title), ...(severity === 'error' ? [showLog] : [])];
  const shown =
    severity === 'info'
      ? services.ui.showInformationMessage(message, ...titles)
      : severity === 'warning'
        ? services.ui.showWarningMessage(message, {}, ...titles)
        : services.ui.showErrorMessage(message, ...titles);
  void shown
    .then(async (choice) => {
      if (choice === showLog) return services.log.show();
      const button = buttons.find((candidate) => candidate.title === choice);
      if (!button) return undefined;
      return 'run' in button ? button.run() : vscode.commands.executeCommand(button.command, ...(button.args ?? []));
    })
    .then(undefined, (error: unknown) => services.log.warn('command', `the button of "${message.slice(0, 60)}…" failed`, error));
}
