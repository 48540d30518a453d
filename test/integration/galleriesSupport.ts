// Shared set-up for the Galleries view and upload tests: the built-in sandbox profile, spot
// documents with pending galleries imported through the real Import Spot command, and a reader
// that walks the tree through the view's own TreeDataProvider (what VS Code itself calls).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type * as Core from '../../src/core';
import type { CommandServices } from '../../src/extension/commands/commandTable';
import { SANDBOX_PROFILE_ID, type Profile } from '../../src/extension/platform/domain';
import type { TreeNode } from '../../src/extension/galleries/nodes/treeNode';
import { installScriptedUi, type ScriptedUi } from './helpers/scriptedUi';

export interface Row {
  node: TreeNode;
  item: vscode.TreeItem;
  label: string;
  description: string;
  contextValue: string;
}

/** The sandbox profile, active and started; its galleries forgotten so each test starts empty. */
export async function useSandbox(services: CommandServices): Promise<{ profile: Profile; client: Core.ServiceClient }> {
  await services.profiles.setActive(SANDBOX_PROFILE_ID);
  const { profile, client } = await services.clients.client();
  for (const known of services.galleries.list(profile.id)) await services.galleries.remove(profile.id, known.galleryId);
  return { profile, client };
}

/** What each test of a galleries or upload suite works with; fresh for every test. */
export interface GalleryTest {
  readonly ui: ScriptedUi;
  readonly services: CommandServices;
  /** Restores the UI and fails on unexpected or missing prompts: call it at the end of the test. */
  done(): void;
}

/**
 * Call inside describe(): before each test a scripted UI is installed and the sandbox profile is
 * active with no galleries remembered; after each test (passed or failed) the UI is restored.
 */
export function useScriptedSandbox(): GalleryTest {
  let current: { ui: ScriptedUi; services: CommandServices; done(): void; restore(): void } | undefined;
  const get = () => {
    assert.ok(current, 'used outside a test');
    return current;
  };
  beforeEach(async () => {
    current = await installScriptedUi();
    await useSandbox(current.services);
  });
  afterEach(() => {
    current?.restore();
    current = undefined;
  });
  return {
    get ui() {
      return get().ui;
    },
    get services() {
      return get().services;
    },
    done: () => get().done(),
  };
}

export function fixtureFile(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the fixture workspace is open');
  return vscode.Uri.joinPath(folder.uri, 'upload', name);
}

export const PNG = 'trail-marker.png';
export const JPG = 'river-bank.jpg';
export const JPEG = 'meadow.jpeg';

let counter = 0;

/** A unique source_id per call, so reruns against a persistent sandbox never collide. */
export function uniqueSourceId(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${++counter}`;
}

/** Writes a spot document with the given pending (null) gallery fields into a temp folder. */
export function writeSpotDocument(sourceId: string, galleryFields: string[]): vscode.Uri {
  const attributes: Record<string, unknown> = { topic_id: 37, source_id: sourceId, latitude: 47.07, longitude: 15.44, state: 2 };
  for (const field of galleryFields) attributes[field] = null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spot-galleries-'));
  const file = path.join(dir, `${sourceId}.spot.json`);
  fs.writeFileSync(file, JSON.stringify({ data: { type: 'spots', attributes } }, null, 2));
  return vscode.Uri.file(file);
}

/** Imports through the real command; the scripted UI must expect its result message. */
export async function importSpot(ui: ScriptedUi, uri: vscode.Uri): Promise<Core.ImportResult> {
  ui.expect({ kind: 'info', match: /Imported .* Pending galleries/ });
  const result = await vscode.commands.executeCommand<Core.ImportResult | undefined>('spotImport.importSpot', uri);
  assert.ok(result, `import of ${uri.fsPath} returned nothing: ${ui.shown.map((s) => s.text).join(' | ')}`);
  return result;
}

export async function rows(services: CommandServices, node?: TreeNode): Promise<Row[]> {
  const provider = services.galleriesView.provider;
  assert.ok(provider, 'the Galleries view is registered');
  const nodes = (await provider.getChildren(node)) ?? [];
  return Promise.all(
    nodes.map(async (child) => {
      const item = await provider.getTreeItem(child);
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      return { node: child, item, label, description: String(item.description ?? ''), contextValue: item.contextValue ?? '' };
    }),
  );
}

/** The row's tooltip as VS Code shows it on hover (resolved: an image's picture is added only then). */
export async function hoverTooltip(services: CommandServices, row: Row): Promise<string> {
  const provider = services.galleriesView.provider;
  const source = new vscode.CancellationTokenSource();
  try {
    const item = await provider.resolveTreeItem(row.item, row.node, source.token);
    const tooltip = item.tooltip;
    return typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? '');
  } finally {
    source.dispose();
  }
}

/** The gallery's row, looked up afresh (the roots are rebuilt whenever the store changes). */
export async function galleryRow(services: CommandServices, galleryId: number): Promise<Row> {
  for (const root of await rows(services)) {
    const found = (await rows(services, root.node)).find((row) => (row.node as { galleryId?: number }).galleryId === galleryId);
    if (found) return found;
  }
  assert.fail(`gallery ${galleryId} is not in the tree`);
}

export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A temp file of the given bytes, for uploads the fixtures do not cover (empty, many). */
export function tempFile(name: string, bytes: Buffer): vscode.Uri {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spot-upload-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return vscode.Uri.file(file);
}
