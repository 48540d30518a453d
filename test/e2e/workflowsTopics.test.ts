// E2E: topic definitions you can see, with the packaged extension.
//   1. A definition spot-topics/7.topic.json (category field fld_7_1 "Species", number field
//      fld_7_2 "Height (m)"; written by workflowHelpers.writeTopicDefinition7, as workflowsRows
//      writes it) and a topic-7 spot document: the editor shows the field labels after
//      the fld_ names and the category's label ("Oak") after its key, as inlay hints.
//   2. Ctrl+Space in the value of fld_7_1 lists the category keys with their labels (Oak, Beech).
// Screenshots: artifacts/e2e/topics-*.png. Needs no profile or server: the topic features are local.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { clearNotifications, dismissOverlays, openFile, page, runCommandAsking, settledShot, shot, workspaceDir } from './workbench';
import { TOPIC_7_DEFINITION, writeTopicDefinition7 } from './workflowHelpers';

const SPOT = 'topics-demo.spot.json';

/** The document's text; fld_7_1 is the last member so its value ends its line. */
const SPOT_TEXT =
  JSON.stringify(
    { data: { type: 'spots', attributes: { topic_id: 7, source_id: 'e2e-topics-demo', latitude: 47.2692, longitude: 11.4041, fld_7_2: 12.5, fld_7_1: 1 } } },
    null,
    2,
  ) + '\n';

function writeWorkspaceFiles(): void {
  writeTopicDefinition7();
  fs.writeFileSync(path.join(workspaceDir(), SPOT), SPOT_TEXT);
}

/** 1-based line and column of the first character of fld_7_1's value in SPOT_TEXT. */
function valuePosition(): { line: number; column: number } {
  const lines = SPOT_TEXT.split('\n');
  const index = lines.findIndex((line) => line.includes('"fld_7_1": '));
  assert.ok(index >= 0);
  return { line: index + 1, column: lines[index].indexOf('"fld_7_1": ') + '"fld_7_1": '.length + 1 };
}

/** The active editor's rendered lines (inlay hints included), non-breaking spaces as spaces. */
function activeEditorLines() {
  return page().locator('.part.editor .editor-group-container.active .monaco-editor .view-lines').first();
}

async function waitForEditorText(texts: string[], timeout = 30_000): Promise<string> {
  const lines = activeEditorLines();
  await page().waitForFunction(
    ({ element, texts }) => {
      const text = (element?.textContent ?? '').replace(/\u00a0/g, ' ');
      return texts.every((wanted) => text.includes(wanted));
    },
    { element: await lines.elementHandle(), texts },
    { timeout },
  );
  return ((await lines.textContent()) ?? '').replace(/\u00a0/g, ' ');
}

let opened: Promise<void> | undefined;

/** Writes the files and opens the definition once (the editor tells the extension), then the spot. */
function openSpot(): Promise<void> {
  opened ??= (async () => {
    writeWorkspaceFiles();
    // The extension is up once its status bar item shows.
    await page().locator('.part.statusbar .statusbar-item', { hasText: 'Spot:' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await openFile(TOPIC_7_DEFINITION);
    await openFile(SPOT);
    await clearNotifications(); // e.g. the git toast: the pictures show the editor
  })();
  return opened;
}

describe('e2e topic definitions you can see (inlay hints, category completion)', function () {
  this.timeout(120_000);

  after(async () => {
    await dismissOverlays().catch(() => undefined);
  });

  it('shows field labels and category labels as inlay hints in a spot document of a defined topic', async () => {
    await openSpot();
    const text = await waitForEditorText(['Species', 'Height (m)', 'Oak']);
    // The label follows its field name, the category label its key (inlay hints are injected text).
    assert.match(text, /"fld_7_1"\s*Species\s*:\s*1\s*Oak/, text);
    assert.match(text, /"fld_7_2"\s*Height \(m\)\s*:\s*12\.5/, text);
    assert.ok(!text.includes('Beech'), 'only the label of the key the document has');
    await settledShot('topics-inlay-hints');
  });

  it('completes the value of a category field with its keys and their labels', async () => {
    await openSpot();
    await waitForEditorText(['Species']);
    const { line, column } = valuePosition();
    await runCommandAsking('Go to Line/Column...', ':');
    await page().locator('.quick-input-widget .quick-input-box input').fill(`:${line}:${column}`);
    await page().keyboard.press('Enter');
    await page().locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
    // The keyboard comes back to the editor a moment after the palette closes: a key pressed
    // before that goes nowhere.
    await page().waitForFunction(() => !!document.activeElement?.closest('.part.editor .monaco-editor'), undefined, { timeout: 10_000 });
    // And the cursor is where Go to Line put it: the editor can have the keyboard before the
    // cursor is moved there, and a suggestion list opened before that move is closed by it (CI
    // once: no list within 20 s, the cursor at the value afterwards).
    await page()
      .locator('.part.statusbar .statusbar-item', { hasText: `Ln ${line}, Col ${column}` })
      .first()
      .waitFor({ state: 'visible', timeout: 10_000 });
    await page().keyboard.press('Control+Space');
    const widget = page().locator('.part.editor .editor-widget.suggest-widget').first();
    await widget.waitFor({ state: 'visible', timeout: 20_000 });
    const rows = widget.locator('.monaco-list-row');
    await rows.filter({ hasText: 'Oak' }).first().waitFor({ state: 'visible', timeout: 20_000 });
    await rows.filter({ hasText: 'Beech' }).first().waitFor({ state: 'visible', timeout: 20_000 });
    const texts = (await rows.allTextContents()).map((row) => row.replace(/\u00a0/g, ' '));
    assert.ok(
      texts.some((row) => /^1\s*Oak/.test(row)),
      `key 1 with its label Oak: ${texts.join(' | ')}`,
    );
    assert.ok(
      texts.some((row) => /^2\s*Beech/.test(row)),
      `key 2 with its label Beech: ${texts.join(' | ')}`,
    );
    await page().waitForTimeout(500); // the widget's details settle
    await shot('topics-category-completion');
    await page().keyboard.press('Escape');
  });
});
