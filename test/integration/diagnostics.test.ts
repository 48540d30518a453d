// Validation while writing: exact ranges, debounced updates, cleared on close, and no duplicates
// of what the JSON language service already reports from the schema for *.spot.json files.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { pendingGalleryMessage } from '../../src/core/api/spotSchema';
import { closeAllEditors, fixtureUri, spotDiagnostics, useTestProfile, waitFor } from './helpers/testEnv';

/** A spot document outside the workspace, written as given. */
function spotFile(name: string, text: string): vscode.Uri {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'it-diagnostics-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return vscode.Uri.file(file);
}

/** What others (VS Code's JSON language service, from the generated schema) report. */
function othersDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((diagnostic) => diagnostic.source !== 'Spot Import');
}

function listed(diagnostics: vscode.Diagnostic[]): string {
  return diagnostics
    .map(
      (d) =>
        `${vscode.DiagnosticSeverity[d.severity]} ${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.message} (${d.source})`,
    )
    .join('\n');
}

function rangeOfText(document: vscode.TextDocument, text: string, last = false): vscode.Range {
  const offset = last ? document.getText().lastIndexOf(text) : document.getText().indexOf(text);
  assert.ok(offset >= 0, `"${text}" is in ${document.uri.path}`);
  return new vscode.Range(document.positionAt(offset), document.positionAt(offset + text.length));
}

describe('spot document diagnostics', () => {
  before(async () => {
    await useTestProfile();
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await closeAllEditors();
  });

  it('marks a pending gallery without state 2 on the gallery field, and only that, in *.spot.json', async () => {
    const uri = fixtureUri('import', 'single', 'pending-needs-state.spot.json');
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const diagnostics = await waitFor('diagnostics', () => spotDiagnostics(uri).length > 0 && spotDiagnostics(uri));
    assert.strictEqual(diagnostics.length, 1, diagnostics.map((d) => d.message).join('\n'));
    assert.match(diagnostics[0].message, /fld_1_7 is pending.*"state": 2/);
    assert.deepStrictEqual(diagnostics[0].range, rangeOfText(document, 'null'));
    assert.strictEqual(diagnostics[0].severity, vscode.DiagnosticSeverity.Error);
  });

  it('follows edits (debounced) and clears when fixed', async () => {
    const uri = fixtureUri('import', 'single', 'pending-needs-state.spot.json');
    const document = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(document);
    await waitFor('the first diagnostic', () => spotDiagnostics(uri).length === 1);
    await editor.edit((edit) => edit.replace(rangeOfText(document, '"state": 1'), '"state": 2'));
    await waitFor('diagnostics cleared after the fix', () => spotDiagnostics(uri).length === 0);
    await editor.edit((edit) => edit.replace(rangeOfText(document, '"state": 2'), '"state": 1'));
    await waitFor('the diagnostic back after undoing the fix', () => spotDiagnostics(uri).length === 1);
  });

  it('reports every schema problem at its value for a .json file whose data.type is "spots"', async () => {
    const uri = fixtureUri('import', 'single', 'by-content.json');
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const diagnostics = await waitFor('diagnostics', () => spotDiagnostics(uri).length >= 2 && spotDiagnostics(uri));
    const byRange = (text: string) => diagnostics.find((diagnostic) => diagnostic.range.isEqual(rangeOfText(document, text)));
    assert.ok(
      byRange('"one"'),
      `topic_id marked on its value: ${diagnostics.map((d) => `${d.message} @${d.range.start.line}:${d.range.start.character}`).join('; ')}`,
    );
    assert.match(byRange('"one"')!.message, /topic_id/);
    assert.ok(byRange('123.5'), 'latitude marked on its value');
    assert.match(byRange('123.5')!.message, /latitude/);
    assert.strictEqual(diagnostics.length, 2);
  });

  it('reports every problem that makes Import refuse a *.spot.json file as an Error at its exact range, once', async () => {
    const uri = spotFile(
      'refused.spot.json',
      [
        '{',
        '  "data": {',
        '    "type": "spots",',
        '    "attributes": {',
        '      "topic_id": "one",',
        '      "source_id": "it-refused",',
        '      "latitude": 123.5,',
        '      "longitude": 16.3738,',
        '      "source_id": "it-refused-other",',
        '      "state": 1,',
        '      "fld_1_7": null',
        '    }',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const diagnostics = await waitFor('four diagnostics', () => spotDiagnostics(uri).length >= 4 && spotDiagnostics(uri));
    const expected: Array<[string, RegExp, boolean?]> = [
      ['"one"', /topic_id must be a whole number/],
      ['123.5', /latitude must be between -90 and 90/],
      ['"source_id"', /source_id appears more than once/, true],
      ['null', /fld_1_7 is pending/],
    ];
    assert.strictEqual(diagnostics.length, expected.length, listed(diagnostics));
    for (const [text, message, last] of expected) {
      const found = diagnostics.filter((diagnostic) => diagnostic.range.isEqual(rangeOfText(document, text, last)) && message.test(diagnostic.message));
      assert.strictEqual(found.length, 1, `${message} once at ${text}:\n${listed(diagnostics)}`);
      assert.strictEqual(found[0].severity, vscode.DiagnosticSeverity.Error, `${message} is an Error`);
    }
  });

  it('has the editor schema place the pending-gallery message by itself, and take 7.0 as a whole number', async () => {
    const uri = spotFile(
      'schema-only.spot.json',
      JSON.stringify(
        { data: { type: 'spots', attributes: { topic_id: 1, source_id: 'it-schema', latitude: 1, longitude: 2, state: 1, fld_1_7: null } } },
        null,
        2,
      ).replace('"topic_id": 1', '"topic_id": 7.0'),
    );
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const pending = await waitFor(
      "the JSON language service's pending-gallery message",
      () => othersDiagnostics(uri).find((diagnostic) => /is pending \(null\)/.test(diagnostic.message)),
      20_000,
    );
    assert.strictEqual(pending.message, pendingGalleryMessage(), "the core's words");
    assert.deepStrictEqual(pending.range, rangeOfText(document, 'null'));
    const others = othersDiagnostics(uri);
    const overlaps = (range: vscode.Range) => others.filter((diagnostic) => diagnostic.range.intersection(range)?.isEmpty === false);
    assert.deepStrictEqual(overlaps(rangeOfText(document, '7.0')), [], listed(others));
    assert.strictEqual(others.length, 1, listed(others));
  });

  it('reports a comment in a spot document opened as JSON with Comments, which Import refuses but the JSON service allows', async () => {
    const uri = spotFile(
      'commented.json',
      '{\n  "data": {\n    "type": "spots", // a note\n    "attributes": { "topic_id": 1, "source_id": "it-jsonc", "latitude": 1, "longitude": 2 }\n  }\n}\n',
    );
    const document = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(uri), 'jsonc');
    await vscode.window.showTextDocument(document);
    const diagnostics = await waitFor('the comment reported', () => spotDiagnostics(uri).length > 0 && spotDiagnostics(uri));
    assert.strictEqual(diagnostics.length, 1, listed(diagnostics));
    assert.deepStrictEqual(diagnostics[0].range, rangeOfText(document, '// a note'));
    assert.strictEqual(diagnostics[0].severity, vscode.DiagnosticSeverity.Error);
    assert.match(diagnostics[0].message, /Not valid JSON/);
  });

  it('leaves ordinary JSON alone', async () => {
    const uri = fixtureUri('import', 'single', 'not-a-spot.json');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.deepStrictEqual(spotDiagnostics(uri), []);
  });

  it('reports nothing for a valid document', async () => {
    const uri = fixtureUri('import', 'single', 'valid.spot.json');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.deepStrictEqual(spotDiagnostics(uri), []);
  });

  it('offers the Import Spot CodeLens at the top of spot documents only', async () => {
    const spot = fixtureUri('import', 'single', 'valid.spot.json');
    const plainUri = fixtureUri('import', 'single', 'not-a-spot.json');
    // The CodeLens command needs loaded documents (it fails with "Illegal argument" otherwise).
    await vscode.workspace.openTextDocument(spot);
    await vscode.workspace.openTextDocument(plainUri);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', spot);
    const ours = lenses.filter((lens) => lens.command?.command === 'spotImport.importSpot');
    assert.strictEqual(ours.length, 1);
    assert.strictEqual(ours[0].range.start.line, 0);
    assert.match(ours[0].command!.title, /Import Spot to Integration sandbox/);
    assert.strictEqual((ours[0].command!.arguments?.[0] as vscode.Uri).toString(), spot.toString());
    const plain = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', plainUri);
    assert.ok(!plain.some((lens) => lens.command?.command === 'spotImport.importSpot'));
  });

  it('clears diagnostics when the document closes', async () => {
    const uri = fixtureUri('import', 'single', 'by-content.json');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    await waitFor('diagnostics', () => spotDiagnostics(uri).length > 0);
    await closeAllEditors();
    await waitFor('diagnostics cleared after close', () => spotDiagnostics(uri).length === 0, 15_000);
  });
});
