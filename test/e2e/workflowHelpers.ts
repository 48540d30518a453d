// Helpers the workflow tests share: titles as package.json contributes them, the Explorer's rows,
// the profile status item, switching to the built-in sandbox profile, and the workspace's topic 7.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { commandTitle, dismissOverlays, manifest, page, quickInputRow, runCommandByKeyboard, workspaceDir } from './workbench';

export const SANDBOX_LABEL = 'Local (sandbox)';

/** A command's palette title ("Category: Title"), failing the test when it is not contributed. */
export function title(id: string): string {
  const found = commandTitle(id);
  assert.ok(found, `${id} is contributed in package.json`);
  return found;
}

/** A command's title without its category, as menus show it. */
export function plainTitle(id: string): string {
  const command = manifest.contributes?.commands?.find((c) => c.command === id);
  assert.ok(command, `${id} is contributed in package.json`);
  return command.title;
}

export const galleriesContainer = () => manifest.contributes?.viewsContainers?.activitybar?.find((c) => c.id === 'spotImport')?.title ?? 'Spot Galleries';

/** A row of the Explorer's file tree. */
export function explorerRow(name: string) {
  return page().locator('.explorer-folders-view .monaco-list-row[role="treeitem"]', { hasText: name }).first();
}

/** The extension's profile item in the status bar, by its text. */
export function profileStatus(text: string | RegExp) {
  return page().locator('.part.statusbar .statusbar-item', { hasText: text }).first();
}

/** Palette "Spot Import: Switch Profile…", pick the built-in sandbox profile (no profile is active at first start). */
export async function useSandboxProfile(): Promise<void> {
  const status = profileStatus(`Spot: ${SANDBOX_LABEL}`);
  // The extension is up once its status bar item shows (right after start the palette may not list its commands yet).
  await profileStatus('Spot:').waitFor({ state: 'visible', timeout: 30_000 });
  if (!(await status.isVisible())) {
    await runCommandByKeyboard(title('spotImport.switchProfile')).catch(async () => {
      await dismissOverlays();
      await page().waitForTimeout(2_000);
      await runCommandByKeyboard(title('spotImport.switchProfile'));
    });
    const row = quickInputRow(SANDBOX_LABEL);
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    await row.click();
    await page().locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
  }
  await status.waitFor({ state: 'visible', timeout: 15_000 });
}

/** Where the definition of topic 7 lives in the e2e workspace (relative to it). */
export const TOPIC_7_DEFINITION = 'spot-topics/7.topic.json';

/**
 * Writes the workspace's definition of topic 7 ("Trail observations"): a category field fld_7_1
 * "Species" (Oak, Beech, Larch), a number fld_7_2 "Height (m)", a gallery fld_7_3 "Photos" and
 * spotted_at "Observed at". Every e2e test that needs topic 7 writes it with this, so each run of
 * any of them leaves the same file (workflowsTopics: its labels as inlay hints; workflowsRows: the
 * rows of a table as topic-7 spots).
 */
export function writeTopicDefinition7(): string {
  const file = path.join(workspaceDir(), TOPIC_7_DEFINITION);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    JSON.stringify(
      {
        topic_id: 7,
        name: 'Trail observations',
        fields: {
          fld_7_1: { label: 'Species', type: 'category', values: { '1': 'Oak', '2': 'Beech', '3': 'Larch' } },
          fld_7_2: { label: 'Height (m)', type: 'number' },
          fld_7_3: { label: 'Photos', type: 'gallery' },
          spotted_at: { label: 'Observed at', type: 'datetime' },
        },
      },
      null,
      2,
    ) + '\n',
  );
  return file;
}
