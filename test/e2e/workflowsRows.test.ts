// E2E: rows of a table as spots (issue 21), with the packaged extension and the built-in
// "Local (sandbox)" profile. rows/trees.csv (a semicolon CSV with a byte-order mark, decimal commas,
// the species by their labels, local times, photos named in a cell) with rows/trees.mapping.json
// beside it, for the workspace's topic 7 (spot-topics/7.topic.json, workflowHelpers.writeTopicDefinition7).
// Three rows: 1 an oak with two photos, 2 a beech, 3 a larch whose latitude and longitude are swapped.
//   1. The Problems panel names row 3's problem ("probably swapped") at its cell; the squiggle is
//      under that cell's text.
//   2. The CodeLens at the top: "Import 2 rows as spots (1 with problems is left out)".
//   3. The hover (Show or Focus Hover, by keyboard) on row 1's Species cell: `fld_7_1` (Species) = `1`.
//   4. Spot Import: Preview Spots from the palette, on row 1: its spot document opens beside the table.
//   5. Spot Import: Import Table Rows as Spots from the palette: the pick says what was imported and that
//      one row failed; picking that row opens the table at its cell. The sandbox counted the imports.
// Screenshots: artifacts/e2e/rows-*.png. Each test brings its own prerequisites (openTable), so each
// can also run alone with SPOT_TEST_GREP.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import {
  activeEditorTab,
  clearNotifications,
  dismissOverlays,
  e2eFixtureWorkspace,
  extensionLog,
  openFile,
  page,
  quickInput,
  quickInputRow,
  runCommandByKeyboard,
  sandboxCounters,
  settledShot,
  shot,
  toast,
  workspaceDir,
} from './workbench';
import { activeEditor, codeLensText, cursorStatus, problemsOf, withoutToasts } from './tableEditor';
import { SANDBOX_LABEL, TOPIC_7_DEFINITION, title, useSandboxProfile, writeTopicDefinition7 } from './workflowHelpers';

const TABLE = 'rows/trees.csv';
const TABLE_NAME = path.basename(TABLE);
/** A stamp of this run: every run imports spots of its own (and photos with bytes of their own). */
const STAMP = `e2e-rows-${Date.now().toString(36)}`;
const LINES = [
  'id;Species;Height (m);lat;lon;observed;photos',
  `${STAMP}-1;Oak;12,5;47,0712;15,4395;27.03.2026 14:30;"oak-1.png;oak-2.png"`,
  `${STAMP}-2;Beech;8;47,08;15,45;28.03.2026 09:00;`,
  `${STAMP}-3;Larch;3,5;139,69;35,68;28.03.2026 10:00;`,
];
const MAPPING = {
  topic_id: 7,
  source_id: '{id}',
  latitude: 'lat',
  longitude: 'lon',
  fields: { spotted_at: { column: 'observed', format: 'dd.MM.yyyy HH:mm', timezone: 'Europe/Vienna' } },
  media: { fld_7_3: { columns: ['photos'], folder: 'photos' } },
};
const PHOTOS = ['oak-1.png', 'oak-2.png'];
/** Row 3 (line 4): its latitude cell (the 4th) holds the longitude. */
const SWAPPED = { line: 4, cell: 3, text: '139,69' };
/** Row 1 (line 2): its Species cell (the 2nd). */
const SPECIES = { line: 2, cell: 1 };

/** 1-based column of the first character of a cell (0-based index) on a line (1-based) of LINES. */
function cellColumn(line: number, cell: number): number {
  const text = LINES[line - 1];
  const starts = [0];
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    if (text[index] === '"') quoted = !quoted;
    else if (text[index] === ';' && !quoted) starts.push(index + 1);
  }
  return starts[cell] + 1;
}

/** The table (UTF-8 with BOM, CRLF), its mapping, its photos and topic 7's definition, in the workspace. */
function writeWorkspaceFiles(): void {
  writeTopicDefinition7();
  const dir = path.join(workspaceDir(), path.dirname(TABLE));
  fs.mkdirSync(path.join(dir, 'photos'), { recursive: true });
  fs.writeFileSync(path.join(workspaceDir(), TABLE), '\uFEFF' + LINES.join('\r\n') + '\r\n');
  fs.writeFileSync(path.join(dir, 'trees.mapping.json'), JSON.stringify(MAPPING, null, 2) + '\n');
  const png = fs.readFileSync(path.join(e2eFixtureWorkspace, 'photos', 'summit-view.png'));
  for (const photo of PHOTOS) fs.writeFileSync(path.join(dir, 'photos', photo), Buffer.concat([png, Buffer.from(`${STAMP}-${photo}`)]));
}

async function waitForCursorAt(line: number, column: number, timeout = 10_000): Promise<void> {
  const wanted = `Ln ${line}, Col ${column}`;
  await page()
    .waitForFunction(
      ({ element, wanted }) => (element?.textContent ?? '').replace(/\u00a0/g, ' ').includes(wanted),
      { element: await cursorStatus().elementHandle(), wanted },
      { timeout },
    )
    .catch(async () => assert.fail(`the cursor is not at ${wanted}: the status bar says "${await cursorStatus().textContent()}"`));
}

/** Go to Line/Column (the palette), as a person moves to a cell by keyboard. */
async function goTo(line: number, column: number): Promise<void> {
  // By keyboard: the palette is replaced at once by Go to Line's own input (runCommand would wait for it to close).
  await runCommandByKeyboard('Go to Line/Column...');
  await quickInput().fill(`:${line}:${column}`);
  await page().keyboard.press('Enter');
  await page().locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
  await waitForCursorAt(line, column);
}

let written = false;

/**
 * Writes the files once, and makes the table the active editor with its rows checked (row 3's
 * squiggle shown). The definition is opened first, so the extension reads it whatever its file
 * watcher saw (as workflowsTopics does).
 */
async function openTable(): Promise<void> {
  if (!written) {
    writeWorkspaceFiles();
    written = true;
    // The extension is up once its status bar item shows.
    await page().locator('.part.statusbar .statusbar-item', { hasText: 'Spot:' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await openFile(TOPIC_7_DEFINITION);
  }
  if (!(await activeEditorTab(TABLE_NAME).isVisible())) await openFile(TABLE);
  await activeEditor()
    .locator('.squiggly-error')
    .first()
    .waitFor({ state: 'attached', timeout: 30_000 })
    .catch(() => {
      // Say why when the log knows (e.g. the .vsix without dist/rows.js: no table is ever checked).
      const said = extensionLog()
        .split('\n')
        .filter((line) => /\[(tables|rows)\]/.test(line))
        .slice(-3);
      assert.fail(`row 3's problem is not underlined after 30 s; the extension's log says about tables: ${said.join(' / ') || 'nothing'}`);
    });
  // The CodeLens follows the check, while the editor has the keyboard: the editor asks again for
  // CodeLenses only then (it cancels the request when it loses focus, e.g. to the Problems panel).
  await codeLensText('Import 2 rows as spots');
}

/**
 * Where row 3's latitude text and the error squiggles are drawn on its line (screen pixels), read
 * from the rendered editor: the squiggle is right when it spans exactly that text.
 */
async function swappedCellAndSquiggles(): Promise<{
  cell?: { left: number; right: number; top: number; bottom: number };
  squiggles: Array<{ left: number; right: number; top: number; bottom: number }>;
}> {
  return activeEditor().evaluate((editor, wanted) => {
    const box = (rect: DOMRect) => ({ left: rect.left, right: rect.right, top: rect.top, bottom: rect.bottom });
    const squiggles = Array.from(editor.querySelectorAll('.squiggly-error')).map((element) => box(element.getBoundingClientRect()));
    for (const line of Array.from(editor.querySelectorAll('.view-lines .view-line'))) {
      const text = (line.textContent ?? '').replace(/\u00a0/g, ' ');
      const at = text.indexOf(`;${wanted};`);
      if (at < 0) continue;
      // The text node and offset of the cell's first and last characters.
      const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      let seen = 0;
      const start = at + 1;
      const end = start + wanted.length;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const length = node.textContent?.length ?? 0;
        if (seen <= start && start < seen + length) range.setStart(node, start - seen);
        if (seen < end && end <= seen + length) range.setEnd(node, end - seen);
        seen += length;
      }
      return { cell: box(range.getBoundingClientRect()), squiggles };
    }
    return { squiggles };
  }, SWAPPED.text);
}

describe('e2e rows of a table as spots (Local sandbox profile)', function () {
  this.timeout(120_000);

  after(async () => {
    await dismissOverlays().catch(() => undefined);
    // Leave the workbench as the next file's pictures expect it: one editor group, no panel.
    for (const command of ['View: Close All Editor Groups', 'View: Hide Panel']) {
      await runCommandByKeyboard(command).catch((error: unknown) => console.warn(`      [rows] ${command}: ${(error as Error).message.split('\n')[0]}`));
    }
  });

  it("lists row 3's swapped coordinates in the Problems panel at its cell, and underlines that cell", async () => {
    await clearNotifications(); // e.g. the git toast: the pictures show the editor
    await openTable();
    const column = cellColumn(SWAPPED.line, SWAPPED.cell);
    await runCommandByKeyboard('View: Focus Problems (Errors, Warnings, Infos)');
    const panel = page().locator('.part.panel .markers-panel');
    await panel.waitFor({ state: 'visible', timeout: 15_000 });
    const problem = panel.locator('.monaco-list-row', { hasText: /probably swapped/ }).first();
    await problem.waitFor({ state: 'visible', timeout: 30_000 });
    const text = ((await problem.textContent()) ?? '').replace(/\u00a0/g, ' ');
    assert.match(text, /latitude/i, `the problem names the coordinate: ${text}`);
    assert.match(text, /Spot Import/, `the problem says where it comes from: ${text}`);
    assert.match(
      text,
      new RegExp(`Ln ${SWAPPED.line}, Col ${column}\\b`),
      `the problem is on row 3's latitude cell (line ${SWAPPED.line}, column ${column}): ${text}`,
    );
    // The Problems panel lists it under the table, the table's only problem (rows 1 and 2 are good).
    const underTable = await problemsOf(TABLE_NAME);
    assert.strictEqual(underTable.length, 1, `one problem under ${TABLE_NAME}: ${underTable.join(' | ')}`);
    assert.match(underTable[0], /probably swapped/);

    // The squiggle is under the cell's text, "139,69", and nowhere else.
    const { cell, squiggles } = await swappedCellAndSquiggles();
    assert.ok(cell, 'row 3 is shown in the editor');
    const under = squiggles.filter((squiggle) => squiggle.bottom > cell.top && squiggle.top < cell.bottom);
    assert.strictEqual(under.length, 1, `one squiggle on row 3's line: ${JSON.stringify({ cell, squiggles })}`);
    assert.ok(
      Math.abs(under[0].left - cell.left) <= 2 && Math.abs(under[0].right - cell.right) <= 2,
      `the squiggle spans "${SWAPPED.text}" exactly: ${JSON.stringify({ cell, squiggle: under[0] })}`,
    );
    assert.strictEqual(squiggles.length, 1, `no other cell is underlined: ${JSON.stringify(squiggles)}`);
    await withoutToasts();
    await settledShot('rows-1-problems');
  });

  it("offers, by keyboard on the swapped cell, to swap the mapping's latitude and longitude columns, saying how many rows look swapped", async () => {
    await openTable();
    await withoutToasts();
    await goTo(SWAPPED.line, cellColumn(SWAPPED.line, SWAPPED.cell) + 1);
    // Quick Fix: Ctrl+. lists the fixes of the problems under the cursor.
    await page().keyboard.press('Control+Period');
    const fix = page().locator('.action-widget .monaco-list-row', { hasText: 'Swap the latitude and longitude columns' }).first();
    await fix.waitFor({ state: 'visible', timeout: 20_000 });
    const text = ((await fix.textContent()) ?? '').replace(/\u00a0/g, ' ');
    assert.match(text, /Swap the latitude and longitude columns in trees\.mapping\.json \(1 of 3 rows look swapped\)/, text);
    await settledShot('rows-1b-quick-fix');
    // Not applied: one row of three is a typing error in the table, not crosswise columns.
    await page().keyboard.press('Escape');
    await fix.waitFor({ state: 'hidden', timeout: 10_000 });
  });

  it('counts the rows it will import in the CodeLens at the top of the table', async () => {
    await openTable();
    const text = await codeLensText('Import 2 rows as spots');
    assert.match(text, /Import 2 rows as spots \(1 with problems is left out\)/, text);
    await withoutToasts();
    await settledShot('rows-2-codelens');
  });

  it('says in a hover, shown by keyboard, which attribute a cell becomes and the value sent', async () => {
    await openTable();
    await withoutToasts();
    await goTo(SPECIES.line, cellColumn(SPECIES.line, SPECIES.cell) + 1); // inside "Oak"
    // The cursor's row gets its own CodeLens, a line above it: once it is there the lines stay put
    // (a hover shown before would be closed as its line moves down).
    await codeLensText('Preview spot of this row (row 1)');
    // The mouse off the title bar (the palette's click leaves a tooltip there) and off the text.
    await page().mouse.move(1000, 780);
    await page().waitForTimeout(700); // the tooltip fades out
    // Show or Focus Hover: Ctrl+K Ctrl+I.
    await page().keyboard.press('Control+K');
    await page().keyboard.press('Control+I');
    const hover = page().locator('.monaco-hover:not(.hidden)', { hasText: 'fld_7_1' }).first();
    await hover.waitFor({ state: 'visible', timeout: 20_000 });
    await page().waitForTimeout(300); // the hover fades in
    const text = ((await hover.textContent()) ?? '').replace(/\u00a0/g, ' ');
    assert.match(text, /fld_7_1\s*\(Species\)\s*=\s*1(?!\d)/, `the label Oak is sent as its key: ${text}`);
    assert.match(text, new RegExp(`${TABLE_NAME} row 1 \\(line 2\\)\\s*→\\s*spot\\s*${STAMP}-1`), `the hover names the row and its spot: ${text}`);
    assert.match(text, /column Species/, `the hover names the column: ${text}`);
    // No mouse move here: the hover was opened by keyboard and stays while the mouse rests.
    await shot('rows-3-hover');
    assert.ok(await hover.isVisible(), 'the hover still shows (the picture has it)');
    await page().keyboard.press('Escape');
    await hover.waitFor({ state: 'hidden', timeout: 10_000 });
  });

  it('previews the spot document of the row under the cursor beside the table', async () => {
    await openTable();
    await goTo(SPECIES.line, 1);
    await runCommandByKeyboard(title('spotImport.rows.preview'));
    const previewName = `${TABLE_NAME} row 1 (spot).json`;
    const group = page()
      .locator('.part.editor .editor-group-container', { has: page().locator('.tab', { hasText: previewName }) })
      .first();
    await group.waitFor({ state: 'visible', timeout: 20_000 });
    const lines = group.locator('.monaco-editor .view-lines').first();
    await page().waitForFunction(
      ({ element, wanted }) => (element?.textContent ?? '').includes(wanted),
      { element: await lines.elementHandle(), wanted: `"${STAMP}-1"` },
      { timeout: 20_000 },
    );
    const text = ((await lines.textContent()) ?? '').replace(/\u00a0/g, ' ');
    assert.match(text, new RegExp(`"source_id":\\s*"${STAMP}-1"`), `the row's source_id: ${text}`);
    assert.match(text, /"fld_7_1":\s*1\b/, `the label's key: ${text}`);
    assert.match(text, /"latitude":\s*47\.0712/, `the decimal comma read: ${text}`);
    // Beside the table: the table stays open in its own group, and keeps the keyboard.
    assert.ok(await activeEditorTab(TABLE_NAME).isVisible(), 'the table stays the active editor');
    assert.notStrictEqual(await group.evaluate((element) => element.classList.contains('active')), true, 'the preview opened in another group');
    await withoutToasts();
    await settledShot('rows-4-preview');
  });

  it('imports the rows from the palette, lists the failed row first, and opens the table at its cell', async () => {
    await useSandboxProfile();
    await openTable();
    await clearNotifications();
    const before = await sandboxCounters(1_000).catch(() => ({ imports: 0, uploads: 0 }));
    await runCommandByKeyboard(title('spotImport.rows.import'));
    // The run ends with a pick whose title is the headline (the first import starts the sandbox).
    const headline = `Imported 2 of 3 rows to ${SANDBOX_LABEL} (2 media uploaded, 0 already there); 1 failed`;
    const pickTitle = page().locator('.quick-input-widget .quick-input-title', { hasText: headline }).first();
    await pickTitle.waitFor({ state: 'visible', timeout: 60_000 });
    const failed = quickInputRow(`${TABLE_NAME} row 3 (line 4)`);
    await failed.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(((await failed.textContent()) ?? '').replace(/\u00a0/g, ' '), /swapped/i, 'the failed row says why');
    const items = (await page().locator('.quick-input-widget .quick-input-list .monaco-list-row').allTextContents()).map((row) => row.replace(/\u00a0/g, ' '));
    assert.ok(items[0]?.includes('row 3'), `the failure first: ${items.join(' | ')}`);
    assert.ok(items.some((item) => item.includes('row 1')) && items.some((item) => item.includes('row 2')), `the imported rows listed: ${items.join(' | ')}`);
    // The progress notification has closed as the pick appeared.
    await toast(`Importing the rows of ${TABLE}`).waitFor({ state: 'hidden', timeout: 15_000 });
    await page().waitForTimeout(500);
    await shot('rows-5-import-pick');

    // Row 2 is imported once; row 1 is imported with its gallery pending, gets its 2 photos, and is
    // made active (one more import). Row 3 is not sent.
    const after = await sandboxCounters();
    const counts = JSON.stringify({ before, after });
    assert.strictEqual(after.imports - before.imports, 3, `the sandbox received the 2 good rows (row 1 twice: pending, then active): ${counts}`);
    assert.strictEqual(after.uploads - before.uploads, 2, `and row 1's 2 photos: ${counts}`);

    await failed.click();
    await page().locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
    await activeEditorTab(TABLE_NAME).waitFor({ state: 'visible', timeout: 15_000 });
    await waitForCursorAt(SWAPPED.line, cellColumn(SWAPPED.line, SWAPPED.cell));
    await codeLensText('Preview spot of this row (row 3)');
    await withoutToasts();
    await settledShot('rows-6-failed-row-opened');
  });

  // Last in this file: the reload gives the window a new extension host (and a new sandbox, which
  // sandboxCounters finds by the newest address in the log).
  it('checks a table the window reopens, without the table being touched', async () => {
    await openTable();
    const activations = () => extensionLog().match(/activated in /g)?.length ?? 0;
    const builds = () => extensionLog().match(/the tables' editor features are built \(first needed by [^)]*\)/g) ?? [];
    const before = { activations: activations(), builds: builds().length };
    await runCommandByKeyboard('Developer: Reload Window');
    const deadline = Date.now() + 60_000;
    while (activations() <= before.activations || builds().length <= before.builds) {
      if (Date.now() > deadline)
        assert.fail(
          `after the reload: ${activations() - before.activations} activations, ${builds().length - before.builds} builds of the tables' features in the log`,
        );
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // The restored table, open when the new extension host activated, is what needed the features:
    // nothing in this test opened, hovered or ran anything (registerTables.ts, openAtActivation).
    const newest = builds().at(-1) ?? '';
    assert.ok(newest.includes(`first needed by ${TABLE_NAME}, open at activation`), newest);
    await activeEditorTab(TABLE_NAME).waitFor({ state: 'visible', timeout: 30_000 });
    await activeEditor().locator('.squiggly-error').first().waitFor({ state: 'attached', timeout: 30_000 });
    await codeLensText('Import 2 rows as spots');
    console.log(`      [rows] after the reload: ${newest}`);
    await withoutToasts();
    await settledShot('rows-7-reopened-table-checked');
  });
});
