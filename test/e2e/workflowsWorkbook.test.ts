// E2E: an Excel workbook's rows as spots (issue 34), with the packaged extension and the built-in
// "Local (sandbox)" profile. rows/survey.xlsx (a sheet "notes" first, then "Trees") with
// rows/survey.mapping.json beside it, which reads the sheet Trees for the workspace's topic 7
// (spot-topics/7.topic.json, workflowHelpers.writeTopicDefinition7). Three rows: 1 an oak, 2 a
// beech, 3 a larch whose latitude (cell D4) and longitude are swapped.
//   1. The workbook open in the editor (VS Code shows it as binary), Spot Import: Show Rows from the
//      palette by keyboard: the sheet Trees opens as a read-only view of CSV lines, line N row N.
//   2. The Problems panel lists row 3's problem under the view, its message starting "Trees!D4: ".
//   3. The CodeLens at the top: "Import 2 rows as spots (1 with problems is left out)".
//   4. Spot Import: Import Table Rows as Spots from the palette on the view: the pick says 2 of 3 rows
//      were imported and 1 failed; the sandbox counted 2 imports. Picking the failed row opens
//      the view at its cell.
// Screenshots: artifacts/e2e/workbook-*.png. Each test brings its own prerequisites (openView), so
// each can also run alone with SPOT_TEST_GREP.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { writeWorkbook } from '../unit/helpers/workbook';
import {
  focusWorkbench,
  activeEditorTab,
  clearNotifications,
  dismissOverlays,
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

const WORKBOOK = 'rows/survey.xlsx';
const WORKBOOK_NAME = path.basename(WORKBOOK);
/** A stamp of this run: every run imports spots of its own. */
const STAMP = `e2e-workbook-${Date.now().toString(36)}`;
/** The sheet Trees, row by row: [id, Species, Height (m), lat, lon]; row 3 (sheet row 4) has lat and lon swapped. */
const HEADER = ['id', 'Species', 'Height (m)', 'lat', 'lon'];
const ROWS: Array<[string, string, number, number, number]> = [
  [`${STAMP}-1`, 'Oak', 12.5, 47.0712, 15.4395],
  [`${STAMP}-2`, 'Beech', 8, 47.08, 15.45],
  [`${STAMP}-3`, 'Larch', 3.5, 139.69, 35.68],
];
/** What the view shows: line N is the sheet's row N, the cells as CSV. */
const LINES = [HEADER.join(','), ...ROWS.map((row) => row.join(','))];
const MAPPING = { source: { sheet: 'Trees' }, topic_id: 7, source_id: '{id}', latitude: 'lat', longitude: 'lon' };
/** Row 3's latitude: cell D4, the 4th field of line 4. */
const SWAPPED = { cell: 'Trees!D4', line: 4, field: 3, text: '139.69' };

const inline = (reference: string, text: string) => `<c r="${reference}" t="inlineStr"><is><t>${text}</t></is></c>`;
const number = (reference: string, value: number) => `<c r="${reference}"><v>${value}</v></c>`;

/** One sheet row as XML: text cells inline, numbers as numbers, as Excel keeps them. */
function sheetRow(row: number, cells: Array<string | number>): string {
  const xml = cells.map((value, index) => {
    const reference = `${String.fromCharCode(65 + index)}${row}`;
    return typeof value === 'number' ? number(reference, value) : inline(reference, value);
  });
  return `<row r="${row}">${xml.join('')}</row>`;
}

/** 1-based column of the first character of a field (0-based) on a line (1-based) of LINES (no quoted fields here). */
function fieldColumn(line: number, field: number): number {
  return LINES[line - 1].split(',').slice(0, field).join(',').length + (field > 0 ? 2 : 1);
}

/** The workbook, its mapping and topic 7's definition, in the workspace. */
async function writeWorkspaceFiles(): Promise<void> {
  writeTopicDefinition7();
  const file = path.join(workspaceDir(), WORKBOOK);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await writeWorkbook(file, {
    sheets: [
      // A sheet before the one the mapping reads: the view must show Trees, not the first sheet.
      { name: 'notes', rows: sheetRow(1, ['Spring survey of the trail trees']) },
      { name: 'Trees', rows: [sheetRow(1, HEADER), ...ROWS.map((row, index) => sheetRow(index + 2, row))].join('') },
    ],
  });
  fs.writeFileSync(path.join(path.dirname(file), 'survey.mapping.json'), JSON.stringify(MAPPING, null, 2) + '\n');
}

/** The active editor's lines as drawn, top to bottom (Monaco reuses its line elements in any order). */
async function shownLines(): Promise<string[]> {
  return activeEditor()
    .locator('.view-lines')
    .first()
    .evaluate((lines) =>
      Array.from(lines.querySelectorAll<HTMLElement>('.view-line'))
        .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top))
        .map((line) => (line.textContent ?? '').replace(/\u00a0/g, ' ')),
    )
    .catch(() => []);
}

/** Waits until the active editor shows the sheet's CSV lines, and checks them all. */
async function waitForViewLines(timeout = 30_000): Promise<void> {
  const deadline = Date.now() + timeout;
  let lines = await shownLines();
  while (lines[0] !== LINES[0] && Date.now() < deadline) {
    await page().waitForTimeout(250);
    lines = await shownLines();
  }
  assert.deepStrictEqual(lines.slice(0, LINES.length), LINES, `the active editor shows the sheet Trees as CSV lines: ${JSON.stringify(lines)}`);
}

/**
 * Opens the workbook in the editor by Quick Open (VS Code shows it as a binary file, so no text
 * editor comes: openFile would wait for one) and makes its tab the active one.
 */
async function openWorkbook(): Promise<void> {
  await focusWorkbench();
  await page().keyboard.press('Control+P');
  await quickInput().waitFor({ state: 'visible', timeout: 10_000 });
  await quickInput().fill(WORKBOOK);
  const row = quickInputRow(WORKBOOK_NAME);
  await row.waitFor({ state: 'visible', timeout: 20_000 });
  await row.click();
  await page().locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
  await activeEditorTab(WORKBOOK_NAME).waitFor({ state: 'visible', timeout: 20_000 });
  // The binary file's placeholder takes the focus when it has rendered, which closed a palette
  // opened before that (a run under load failed so): the palette opens only after it.
  await page()
    .getByRole('button', { name: 'Open Anyway' })
    .waitFor({ state: 'visible', timeout: 10_000 })
    .catch(() => undefined);
}

/** Show Rows from the palette by keyboard, with the workbook the active editor. */
async function showRows(): Promise<void> {
  await openWorkbook();
  await runCommandByKeyboard(title('spotImport.showRows'));
  await waitForViewLines();
}

let written = false;

/** Writes the files once; the definition is opened first, so the extension reads it whatever its file watcher saw (as workflowsRows does). */
async function writeOnce(): Promise<void> {
  if (written) return;
  await writeWorkspaceFiles();
  written = true;
  // The extension is up once its status bar item shows.
  await page().locator('.part.statusbar .statusbar-item', { hasText: 'Spot:' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  await openFile(TOPIC_7_DEFINITION);
}

/** Makes the sheet's view the active editor (Show Rows, when it is not), with its rows checked: row 3's squiggle and the CodeLens show. */
async function openView(): Promise<void> {
  await writeOnce();
  if ((await shownLines())[0] !== LINES[0]) await showRows();
  await activeEditor()
    .locator('.squiggly-error')
    .first()
    .waitFor({ state: 'attached', timeout: 30_000 })
    .catch(() => {
      // Say why when the log knows (e.g. the workbook reader missing from the .vsix).
      const said = extensionLog()
        .split('\n')
        .filter((line) => /\[(tables|rows)\]/.test(line))
        .slice(-3);
      assert.fail(`row 3's problem is not underlined in the view after 30 s; the extension's log says about tables: ${said.join(' / ') || 'nothing'}`);
    });
  await codeLensText('Import 2 rows as spots');
}

/**
 * Where D4's text and the error squiggles are drawn in the view (screen pixels), read from the
 * rendered editor: the squiggle is right when it spans exactly that text.
 */
async function swappedCellAndSquiggles(): Promise<{
  cell?: { left: number; right: number; top: number; bottom: number };
  squiggles: Array<{ left: number; right: number; top: number; bottom: number }>;
}> {
  return activeEditor().evaluate((editor, wanted) => {
    const box = (rect: DOMRect) => ({ left: rect.left, right: rect.right, top: rect.top, bottom: rect.bottom });
    const squiggles = Array.from(editor.querySelectorAll('.squiggly-error')).map((element) => box(element.getBoundingClientRect()));
    for (const line of Array.from(editor.querySelectorAll('.view-lines .view-line'))) {
      const at = (line.textContent ?? '').replace(/\u00a0/g, ' ').indexOf(`,${wanted},`);
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

describe('e2e an Excel workbook as rows in the editor (Local sandbox profile)', function () {
  this.timeout(120_000);

  after(async () => {
    await dismissOverlays().catch(() => undefined);
    // Leave the workbench as the next file's pictures expect it: one editor group, no panel.
    // (The palette offers Hide Panel only while the panel shows; the CodeLens test hides it.)
    const panelShown = await page()
      .locator('.part.panel')
      .isVisible()
      .catch(() => false);
    for (const command of ['View: Close All Editor Groups', ...(panelShown ? ['View: Hide Panel'] : [])]) {
      await runCommandByKeyboard(command).catch((error: unknown) => console.warn(`      [workbook] ${command}: ${(error as Error).message.split('\n')[0]}`));
    }
  });

  it("opens the mapping's sheet as read-only CSV lines with Show Rows from the palette", async () => {
    await clearNotifications(); // e.g. the git toast: the pictures show the editor
    await writeOnce();
    await showRows();
    // The view's tab is named as the workbook (its path is the workbook's); it has the keyboard.
    assert.ok(await activeEditorTab(WORKBOOK_NAME).isVisible(), `the view's tab is the active one, named ${WORKBOOK_NAME}`);
    await codeLensText('Import 2 rows as spots');
    await withoutToasts();
    await settledShot('workbook-1-view');

    // Read-only: typing into it changes nothing, and the editor says why.
    await page().keyboard.press('End');
    await page().keyboard.type('x');
    await page()
      .locator('.monaco-editor-overlaymessage', { hasText: /read-only/i })
      .first()
      .waitFor({ state: 'visible', timeout: 10_000 });
    assert.deepStrictEqual((await shownLines()).slice(0, LINES.length), LINES, 'the view is unchanged');
    // Back to the start, so the later pictures show no cursor and word highlight left at line 1's end.
    await page().keyboard.press('Escape');
    await page().keyboard.press('Control+Home');
  });

  it('lists row 3\'s problem in the Problems panel, its message starting with the cell "Trees!D4"', async () => {
    await openView();
    await runCommandByKeyboard('View: Focus Problems (Errors, Warnings, Infos)');
    const panel = page().locator('.part.panel .markers-panel');
    await panel.waitFor({ state: 'visible', timeout: 15_000 });
    const problem = panel.locator('.monaco-list-row', { hasText: `${SWAPPED.cell}: ` }).first();
    await problem.waitFor({ state: 'visible', timeout: 30_000 });
    const message = ((await problem.locator('.marker-message-details, .monaco-highlighted-label').first().textContent()) ?? '').replace(/\u00a0/g, ' ');
    assert.ok(message.startsWith(`${SWAPPED.cell}: `), `the message starts with the cell: ${message}`);
    const text = ((await problem.textContent()) ?? '').replace(/\u00a0/g, ' ');
    assert.match(text, /swapped/i, `the problem says what is wrong: ${text}`);
    assert.match(text, /Spot Import/, `the problem says where it comes from: ${text}`);
    const column = fieldColumn(SWAPPED.line, SWAPPED.field);
    assert.match(
      text,
      new RegExp(`Ln ${SWAPPED.line}, Col ${column}\\b`),
      `the problem is at D4's field in the view (line ${SWAPPED.line}, column ${column}): ${text}`,
    );
    // The sheet's only problem (rows 1 and 2 are good), listed under the view, named as the workbook.
    const listed = await problemsOf(WORKBOOK_NAME);
    assert.strictEqual(listed.length, 1, `one problem under ${WORKBOOK_NAME}: ${listed.join(' | ')}`);
    assert.ok(listed[0].includes(`${SWAPPED.cell}: `), listed[0]);
    // The squiggle is under D4's text in the view, "139.69", and nowhere else.
    const { cell, squiggles } = await swappedCellAndSquiggles();
    assert.ok(cell, 'row 3 is shown in the view');
    assert.strictEqual(squiggles.length, 1, `one squiggle in the view: ${JSON.stringify(squiggles)}`);
    assert.ok(
      Math.abs(squiggles[0].left - cell.left) <= 2 &&
        Math.abs(squiggles[0].right - cell.right) <= 2 &&
        squiggles[0].top < cell.bottom &&
        squiggles[0].bottom > cell.top,
      `the squiggle spans "${SWAPPED.text}" exactly: ${JSON.stringify({ cell, squiggle: squiggles[0] })}`,
    );
    await withoutToasts();
    await settledShot('workbook-2-problems');
  });

  it('counts the rows it will import in the CodeLens at the top of the view', async () => {
    await openView();
    // The picture is about the view: no Problems panel below it, the keyboard in the editor.
    if (await page().locator('.part.panel').isVisible()) await runCommandByKeyboard('View: Hide Panel');
    await runCommandByKeyboard('View: Focus Active Editor Group');
    const text = await codeLensText('Import 2 rows as spots');
    assert.match(text, /Import 2 rows as spots \(1 with problems is left out\)/, text);
    // At the top: above the header, line 1.
    const lens = await activeEditor().locator('.codelens-decoration', { hasText: 'Import 2 rows as spots' }).first().boundingBox();
    const header = await activeEditor().locator('.view-lines .view-line', { hasText: HEADER[1] }).first().boundingBox();
    assert.ok(lens && header && lens.y + lens.height <= header.y + 1, `the CodeLens is above the header line: ${JSON.stringify({ lens, header })}`);
    await withoutToasts();
    await settledShot('workbook-3-codelens');
  });

  it('imports the rows from the palette on the view: 2 imported, 1 failed, and the failed row opens at its cell', async () => {
    await useSandboxProfile();
    await openView();
    await clearNotifications();
    // The sandbox starts with the first import of the run: no counters before it.
    const before = await sandboxCounters(1_000).catch(() => ({ imports: 0, uploads: 0 }));
    await runCommandByKeyboard(title('spotImport.rows.import'));
    const headline = `Imported 2 of 3 rows to ${SANDBOX_LABEL}; 1 failed`;
    const pickTitle = page().locator('.quick-input-widget .quick-input-title', { hasText: headline }).first();
    await pickTitle.waitFor({ state: 'visible', timeout: 60_000 });
    const failed = quickInputRow(`${WORKBOOK_NAME} row 3 (line 4)`);
    await failed.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(((await failed.textContent()) ?? '').replace(/\u00a0/g, ' '), /swapped/i, 'the failed row says why');
    const items = (await page().locator('.quick-input-widget .quick-input-list .monaco-list-row').allTextContents()).map((row) => row.replace(/\u00a0/g, ' '));
    assert.ok(items[0]?.includes('row 3'), `the failure first: ${items.join(' | ')}`);
    assert.ok(items.some((item) => item.includes('row 1')) && items.some((item) => item.includes('row 2')), `the imported rows listed: ${items.join(' | ')}`);
    await toast(/Importing the rows of/).waitFor({ state: 'hidden', timeout: 15_000 });
    await page().waitForTimeout(500);
    await shot('workbook-4-import-pick');

    // Rows 1 and 2 imported once each (no media); row 3 not sent.
    const after = await sandboxCounters();
    const counts = JSON.stringify({ before, after });
    assert.strictEqual(after.imports - before.imports, 2, `the sandbox received the 2 good rows: ${counts}`);
    assert.strictEqual(after.uploads - before.uploads, 0, `and no media: ${counts}`);

    // The failed row opens the view (not the binary workbook) with its cell D4 selected.
    await failed.click();
    await page().locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
    await waitForViewLines(15_000);
    const selected = await page()
      .waitForFunction(
        ({ element, line }) => {
          const text = (element?.textContent ?? '').replace(/\u00a0/g, ' ');
          return text.includes(`Ln ${line},`) ? text : undefined;
        },
        { element: await cursorStatus().elementHandle(), line: SWAPPED.line },
        { timeout: 10_000 },
      )
      .then((handle) => handle.jsonValue())
      .catch(async () => assert.fail(`the cursor is not on line ${SWAPPED.line}: the status bar says "${await cursorStatus().textContent()}"`));
    assert.match(String(selected), new RegExp(`\\(${SWAPPED.text.length} selected\\)`), `the cell "${SWAPPED.text}" is selected: ${selected}`);
    await withoutToasts();
    await settledShot('workbook-5-failed-row-opened');
  });
});
