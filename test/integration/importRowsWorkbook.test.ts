// An Excel workbook in the editor (issue 34), in the extension host against the sandbox: Import
// Rows as Spots from the Explorer's menu on form.xlsx with its mapping beside it imports the
// valid rows of the mapping's sheet, says which row failed by its cell, and a second run sends
// nothing; its problems are on the workbook in the Problems panel, each naming its cell.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { RowsImportSummary } from '../../src/extension/tables/commands/importRows';
import { writeWorkbook } from '../unit/helpers/workbook';
import { installScriptedUi } from './helpers/scriptedUi';
import { counters, fixtureUri, spotDiagnostics, useTestProfile, waitFor } from './helpers/testEnv';

const inline = (reference: string, text: string) => `<c r="${reference}" t="inlineStr"><is><t>${text}</t></is></c>`;
const number = (reference: string, value: number) => `<c r="${reference}"><v>${value}</v></c>`;

describe('Import Table Rows as Spots: an Excel workbook', () => {
  const dirs: string[] = [];
  let restore: (() => void) | undefined;
  afterEach(() => {
    restore?.();
    restore = undefined;
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('imports the valid rows of the sheet, names a failed row by its cell, and a second run sends nothing', async () => {
    const { sandbox } = await useTestProfile();
    const dir = fs.mkdtempSync(path.join(fixtureUri().fsPath, '.it-workbook-'));
    dirs.push(dir);
    const stamp = `it-xlsx-${Date.now().toString(36)}`;
    const workbook = path.join(dir, 'form.xlsx');
    await writeWorkbook(workbook, {
      sheets: [
        { name: 'notes', rows: `<row r="1">${inline('A1', 'a note')}</row>` },
        {
          name: 'Trees',
          rows: [
            `<row r="1">${inline('A1', 'id')}${inline('B1', 'lat')}${inline('C1', 'lon')}${inline('D1', 'Species')}</row>`,
            `<row r="2">${inline('A2', `${stamp}-1`)}${number('B2', 47.0712)}${number('C2', 15.4395)}${inline('D2', 'Oak')}</row>`,
            `<row r="3">${inline('A3', `${stamp}-2`)}${number('B3', 139.69)}${number('C3', 35.68)}${inline('D3', 'Oak')}</row>`,
            `<row r="4">${inline('A4', `${stamp}-3`)}${number('B4', 47.08)}${number('C4', 15.45)}${inline('D4', 'Oak')}</row>`,
          ].join(''),
        },
      ],
    });
    fs.writeFileSync(
      path.join(dir, 'form.mapping.json'),
      JSON.stringify(
        { source: { sheet: 'Trees' }, topic_id: 7, source_id: '{id}', latitude: 'lat', longitude: 'lon', fields: { fld_7_1: 'Species' } },
        null,
        2,
      ),
    );
    const uri = vscode.Uri.file(workbook);

    const before = counters(sandbox).imports;
    const run = await installScriptedUi([{ kind: 'quickPick', match: /^Imported 2 of 3 rows to Integration sandbox; 1 failed$/, pick: undefined }]);
    restore = run.restore;
    const summary = await vscode.commands.executeCommand<RowsImportSummary>('spotImport.rows.import', uri);
    run.done();
    assert.deepStrictEqual(
      summary.imported.map((entry) => entry.sourceId),
      [`${stamp}-1`, `${stamp}-3`],
    );
    assert.deepStrictEqual(
      summary.failed.map((failure) => failure.file),
      ['form.xlsx row 2 (line 3)'],
    );
    assert.ok(sandbox.spotBySourceId(`${stamp}-1`), 'row 1 is a spot');
    assert.strictEqual(sandbox.spotBySourceId(`${stamp}-2`), undefined, 'the swapped row was not sent');
    assert.strictEqual(counters(sandbox).imports - before, 2);

    // The workbook's problems in the Problems panel (checked as the import began), each naming its cell.
    const problems = await waitFor('the workbook checked', () => {
      const found = spotDiagnostics(uri);
      return found.length > 0 ? found : undefined;
    });
    assert.ok(
      problems.some((problem) => problem.message.startsWith('Trees!B3: ') && problem.range.start.line === 2),
      problems.map((problem) => `${problem.range.start.line}: ${problem.message}`).join('\n'),
    );
    const again = await installScriptedUi([{ kind: 'quickPick', match: /^Imported 2 of 3 rows to Integration sandbox; 1 failed$/, pick: undefined }]);
    restore = again.restore;
    await vscode.commands.executeCommand<RowsImportSummary>('spotImport.rows.import', uri);
    again.done();
    assert.strictEqual(counters(sandbox).imports - before, 2, 'the second run sent nothing');
  });
});
