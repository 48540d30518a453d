// Validation while writing: exact ranges, debounced updates, cleared on close, and no duplicates
// of what the JSON language service already reports from the schema for *.spot.json files.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { closeAllEditors, fixtureUri, spotDiagnostics, useTestProfile, waitFor } from './helpers/testEnv';

function rangeOfText(document: vscode.TextDocument, text: string): vscode.Range {
  const offset = document.getText().indexOf(text);
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
    assert.ok(byRange('"one"'), `topic_id marked on its value: ${diagnostics.map((d) => `${d.message} @${d.range.start.line}:${d.range.start.character}`).join('; ')}`);
    assert.match(byRange('"one"')!.message, /topic_id/);
    assert.ok(byRange('123.5'), 'latitude marked on its value');
    assert.match(byRange('123.5')!.message, /latitude/);
    assert.strictEqual(diagnostics.length, 2);
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
