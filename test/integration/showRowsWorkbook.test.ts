// Show Rows on an Excel workbook in the editor, in the extension host: the mapping's sheet opens as
// a read-only CSV view whose line N is the sheet's row N; the bad cell's problem is on its field
// there, named by its cell (Trees!B3); hovers, the CodeLens and Preview Spots work as on a CSV; the
// view follows the workbook when it changes on disk; a file that is not a workbook says what to do.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { writeWorkbook } from '../unit/helpers/workbook';
import { installScriptedUi } from './helpers/scriptedUi';
import { closeAllEditors, fixtureUri, spotDiagnostics, useTestProfile, waitFor } from './helpers/testEnv';

const inline = (reference: string, text: string) => `<c r="${reference}" t="inlineStr"><is><t>${text}</t></is></c>`;
const number = (reference: string, value: number) => `<c r="${reference}"><v>${value}</v></c>`;

/** form.xlsx: a notes sheet first, then Trees; Trees' row 3 has latitude and longitude swapped, row 4 is empty. */
function trees(stamp: string, row3: { lat: number; lon: number }): Parameters<typeof writeWorkbook>[1] {
  return {
    sheets: [
      { name: 'notes', rows: `<row r="1">${inline('A1', 'a note')}</row>` },
      {
        name: 'Trees',
        rows: [
          `<row r="1">${inline('A1', 'id')}${inline('B1', 'lat')}${inline('C1', 'lon')}${inline('D1', 'Species')}${inline('E1', 'note')}</row>`,
          `<row r="2">${inline('A2', `${stamp}-1`)}${number('B2', 47.0712)}${number('C2', 15.4395)}${inline('D2', 'Oak')}${inline('E2', 'tall, &quot;old&quot;')}</row>`,
          `<row r="3">${inline('A3', `${stamp}-2`)}${number('B3', row3.lat)}${number('C3', row3.lon)}${inline('D3', 'Oak')}</row>`,
          `<row r="5">${inline('A5', `${stamp}-3`)}${number('B5', 47.08)}${number('C5', 15.45)}${inline('D5', 'Oak')}</row>`,
        ].join(''),
      },
    ],
  };
}

function hoverText(hovers: vscode.Hover[]): string {
  return hovers.flatMap((hover) => hover.contents.map((content) => (typeof content === 'string' ? content : content.value))).join('\n');
}

describe('Show Rows: an Excel workbook as a CSV view', function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  let restore: (() => void) | undefined;
  afterEach(async () => {
    restore?.();
    restore = undefined;
    await closeAllEditors();
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("opens the mapping's sheet as CSV lines, with the bad cell's problem, a hover, the CodeLens and Preview Spots, and follows the file", async () => {
    await useTestProfile();
    const dir = fs.mkdtempSync(path.join(fixtureUri().fsPath, '.it-show-rows-'));
    dirs.push(dir);
    const stamp = `it-show-${Date.now().toString(36)}`;
    const workbook = path.join(dir, 'form.xlsx');
    await writeWorkbook(workbook, trees(stamp, { lat: 139.69, lon: 35.68 }));
    fs.writeFileSync(
      path.join(dir, 'form.mapping.json'),
      JSON.stringify(
        { source: { sheet: 'Trees' }, topic_id: 7, source_id: '{id}', latitude: 'lat', longitude: 'lon', fields: { fld_7_1: 'Species' } },
        null,
        2,
      ),
    );
    const file = vscode.Uri.file(workbook);

    const editor = await vscode.commands.executeCommand<vscode.TextEditor>('spotImport.showRows', file);
    const view = editor.document.uri;
    assert.strictEqual(view.scheme, 'spot-rows');
    assert.strictEqual(view.path, file.path);
    assert.strictEqual(new URLSearchParams(view.query).get('sheet'), 'Trees', 'the sheet the mapping reads, not the first');
    // Line N is row N: the empty row 4 is an empty line; a cell with a comma and quotes is quoted.
    assert.deepStrictEqual(editor.document.getText().split('\n'), [
      'id,lat,lon,Species,note',
      `${stamp}-1,47.0712,15.4395,Oak,"tall, ""old"""`,
      `${stamp}-2,139.69,35.68,Oak,`,
      '',
      `${stamp}-3,47.08,15.45,Oak,`,
    ]);

    // The swapped row's problem is on B3's field, named by its cell; the workbook's file has none of its own meanwhile.
    const swapped = await waitFor('the problem on Trees!B3', () => spotDiagnostics(view).find((problem) => problem.message.startsWith('Trees!B3: ')), 20_000);
    assert.strictEqual(swapped.range.start.line, 2);
    assert.strictEqual(editor.document.getText(swapped.range), '139.69');
    assert.match(swapped.message, /swapped/i);
    assert.deepStrictEqual(spotDiagnostics(file), []);

    // A hover on a cell says what it becomes: row 1's Species (column D, the fourth field).
    const hover = hoverText(
      await vscode.commands.executeCommand<vscode.Hover[]>(
        'vscode.executeHoverProvider',
        view,
        new vscode.Position(1, editor.document.lineAt(1).text.indexOf('Oak') + 1),
      ),
    );
    assert.match(hover, /column `Species` → `fld_7_1` \(Species\) = `1`/, hover);
    assert.match(
      hoverText(
        await vscode.commands.executeCommand<vscode.Hover[]>(
          'vscode.executeHoverProvider',
          view,
          new vscode.Position(2, editor.document.lineAt(2).text.indexOf('139') + 1),
        ),
      ),
      /column `lat`/,
    );

    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', view);
    assert.ok(
      lenses.some((lens) => lens.command?.title.includes('Import 2 rows as spots (1 with problems is left out)')),
      lenses.map((lens) => lens.command?.title).join(' | '),
    );

    // Preview Spots on the row under the cursor, as on a CSV.
    editor.selection = new vscode.Selection(4, 2, 4, 2);
    const preview = await vscode.commands.executeCommand<vscode.TextEditor>('spotImport.rows.preview');
    assert.strictEqual(preview.document.uri.scheme, 'spot-preview');
    assert.match(preview.document.uri.path, /form\.xlsx row 3 \(spot\)\.json$/);
    assert.strictEqual((JSON.parse(preview.document.getText()) as { data: { attributes: { source_id: string } } }).data.attributes.source_id, `${stamp}-3`);

    // Saved again with the coordinates put right: the view and its problems follow the file.
    await writeWorkbook(workbook, trees(stamp, { lat: 47.0801, lon: 15.4402 }));
    await waitFor('the view reads the file again', () => editor.document.lineAt(2).text === `${stamp}-2,47.0801,15.4402,Oak,`, 20_000);
    await waitFor('the problem gone', () => !spotDiagnostics(view).some((problem) => problem.message.startsWith('Trees!B3: ')), 20_000);
  });

  it('says what to do when the file is not a workbook that can be read', async () => {
    const dir = fs.mkdtempSync(path.join(fixtureUri().fsPath, '.it-show-rows-'));
    dirs.push(dir);
    const broken = path.join(dir, 'broken.xlsx');
    fs.writeFileSync(broken, 'id,lat\n1,47\n');
    const run = await installScriptedUi([{ kind: 'error', match: /^.*broken\.xlsx cannot be shown as rows: .*save it again as an Excel workbook \(\.xlsx\)/ }]);
    restore = run.restore;
    const shown = await vscode.commands.executeCommand<vscode.TextEditor | undefined>('spotImport.showRows', vscode.Uri.file(broken));
    await waitFor('the error shown', () => run.ui.shown.length > 0);
    run.done();
    assert.strictEqual(shown, undefined);
    assert.ok(!vscode.workspace.textDocuments.some((document) => document.uri.scheme === 'spot-rows' && document.uri.path.endsWith('/broken.xlsx')));
  });
});
