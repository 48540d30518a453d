// Shared by the integration tests: one in-process sandbox for the whole run (started from the
// compiled src/sandbox, inside this extension host), a remote profile pointing at it, polling,
// and a registry of every secret and token the run used (checked for leaks at the end).
import * as assert from 'assert';
import { randomBytes } from 'crypto';
import * as vscode from 'vscode';
import { startSandbox } from '../../../src/sandbox';
import type { RunningSandbox, SandboxCounters } from '../../../src/sandbox/types';
import type { CommandServices } from '../../../src/extension/commands/commandTable';
import type { Profile } from '../../../src/extension/platform/domain';
import { extensionServices } from './scriptedUi';

export const TEST_CLIENT = { clientId: 'it_topic_1_api', clientSecret: `it-secret-${randomBytes(12).toString('hex')}` };
export const TEST_PROFILE_NAME = 'Integration sandbox';

/** Every secret value and token the run handled; none may appear in the log, settings or workspace. */
export const usedSecrets = new Set<string>([TEST_CLIENT.clientSecret]);

let sandbox: Promise<RunningSandbox> | undefined;

export function testSandbox(): Promise<RunningSandbox> {
  sandbox ??= startSandbox({ port: 0, clients: [TEST_CLIENT] });
  return sandbox;
}

export function counters(running: RunningSandbox): SandboxCounters {
  return { ...running.counters };
}

/** Makes (once) and activates a remote profile for the test sandbox, with the test client's credentials. */
export async function useTestProfile(): Promise<{ services: CommandServices; sandbox: RunningSandbox; profile: Profile }> {
  const running = await testSandbox();
  const services = await extensionServices();
  let profile = services.profiles.list().find((candidate) => candidate.name === TEST_PROFILE_NAME && candidate.baseUrl === running.baseUrl);
  profile ??= await services.profiles.add({ name: TEST_PROFILE_NAME, baseUrl: running.baseUrl, apiVersion: 'v2.4' });
  await services.credentials.set(profile.id, TEST_CLIENT);
  await services.profiles.setActive(profile.id);
  running.setFaults({});
  return { services, sandbox: running, profile };
}

/**
 * A second remote profile at `baseUrl` (a loopback proxy in front of the test sandbox), with the
 * test client's credentials. `remove()` deletes it and its credentials and makes the test profile
 * active again.
 */
export async function addProfileAt(
  name: string,
  baseUrl: string,
  options: { withCredentials?: boolean } = {},
): Promise<{ services: CommandServices; profile: Profile; remove(): Promise<void> }> {
  const services = await extensionServices();
  const profile = await services.profiles.add({ name, baseUrl, apiVersion: 'v2.4' });
  if (options.withCredentials !== false) await services.credentials.set(profile.id, TEST_CLIENT);
  return {
    services,
    profile,
    remove: async () => {
      for (const known of services.galleries.list(profile.id)) await services.galleries.remove(profile.id, known.galleryId);
      await services.credentials.delete(profile.id);
      await services.profiles.remove(profile.id);
      await useTestProfile();
    },
  };
}

/** A token the extension holds right now, recorded for the leak check. */
export async function rememberCurrentToken(services: CommandServices): Promise<string> {
  const { token } = await services.clients.freshToken();
  usedSecrets.add(token.value);
  return token.value;
}

export async function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function fixtureUri(...parts: string[]): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  assert.ok(folder, 'the fixture workspace is open');
  return vscode.Uri.joinPath(folder, ...parts);
}

export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/** Puts back every file a test changed in memory (reverts the dirty ones), then closes every editor. */
export async function revertAndCloseAll(): Promise<void> {
  for (const document of vscode.workspace.textDocuments) {
    if (document.isDirty && document.uri.scheme === 'file') {
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  }
  await closeAllEditors();
}

/** The range of `text` in the document, its first or its last occurrence; fails when it is not there. */
export function rangeOfText(document: vscode.TextDocument, text: string, occurrence: 'first' | 'last' = 'first'): vscode.Range {
  const offset = occurrence === 'first' ? document.getText().indexOf(text) : document.getText().lastIndexOf(text);
  assert.ok(offset >= 0, `"${text}" is in ${document.uri.path}`);
  return new vscode.Range(document.positionAt(offset), document.positionAt(offset + text.length));
}

/** Our diagnostics only (the JSON language service adds its own for *.spot.json). */
export function spotDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((diagnostic) => diagnostic.source === 'Spot Import');
}

/** Everything the extension's LogOutputChannel wrote to disk so far (the channel's .log file). */
export async function readLogText(): Promise<string> {
  const services = await extensionServices();
  const folder = services.context.logUri;
  const texts: string[] = [];
  const walk = async (uri: vscode.Uri): Promise<void> => {
    let entries: [string, vscode.FileType][];
    try {
      entries = await vscode.workspace.fs.readDirectory(uri);
    } catch {
      return;
    }
    for (const [name, type] of entries) {
      const child = vscode.Uri.joinPath(uri, name);
      if (type & vscode.FileType.Directory) await walk(child);
      else if (name.endsWith('.log')) texts.push(new TextDecoder().decode(await vscode.workspace.fs.readFile(child)));
    }
  };
  await walk(folder);
  return texts.join('\n');
}
