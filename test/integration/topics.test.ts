// Topic-aware authoring in a real extension host: the fixture workspace's spot-topics/ defines
// topics 7 and 8; the documents under topics/ are checked against them. Diagnostics with ranges,
// severities and rule codes; completion, hovers and inlay hints with labels; each quick fix
// applied, after which the document is valid; broken definition files; the topicsFolder
// setting; and "New Topic Definition from Document".
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { extensionServices } from './helpers/scriptedUi';
import { addProfileAt, TEST_CLIENT, closeAllEditors, fixtureUri, rangeOfText, revertAndCloseAll, spotDiagnostics, waitFor } from './helpers/testEnv';
import { startSandbox } from '../../src/sandbox';
import { loadTopicFolder } from '../../src/core/topics/topicFolder';
import { installScriptedUi } from './helpers/scriptedUi';
import type * as Core from '../../src/core';

/** The topic rules' diagnostics (their codes are rule ids), apart from the document's base ones. */
function topicDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Spot Import' && typeof d.code === 'string' && /^(topic|spot)\./.test(d.code));
}

async function open(...parts: string[]): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument(fixtureUri(...parts));
  await vscode.window.showTextDocument(document);
  return document;
}

function labelOf(item: vscode.CompletionItem): { label: string; description?: string } {
  return typeof item.label === 'string' ? { label: item.label } : { label: item.label.label, description: item.label.description };
}

/** The document is valid: no base or topic problem in the core's eyes, and none shown any more. */
async function assertValidNow(document: vscode.TextDocument): Promise<void> {
  const core = await (await extensionServices()).core();
  const topics = await core.loadTopicFolder(fixtureUri('spot-topics').fsPath);
  assert.deepStrictEqual(core.parseSpotText(document.getText()).problems, []);
  assert.deepStrictEqual(core.checkSpotAgainstTopic(document.getText(), topics.catalog), []);
  await waitFor('no diagnostics left after the fix', () => spotDiagnostics(document.uri).length === 0);
}

async function applyQuickFix(document: vscode.TextDocument, range: vscode.Range, title: string | RegExp): Promise<void> {
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
    'vscode.executeCodeActionProvider',
    document.uri,
    range,
    vscode.CodeActionKind.QuickFix.value,
  );
  const action = actions.find((candidate) => (typeof title === 'string' ? candidate.title === title : title.test(candidate.title)));
  assert.ok(action?.edit, `a quick fix "${String(title)}" among: ${actions.map((a) => a.title).join(' | ')}`);
  assert.ok(await vscode.workspace.applyEdit(action.edit));
}

describe('topic definitions in the editor', () => {
  // Put back every fixture a test changed in memory.
  afterEach(revertAndCloseAll);

  it('topic diagnostics: each problem on its characters, with its severity and rule code', async () => {
    const document = await open('topics', 'problems.spot.json');
    const diagnostics = await waitFor('topic diagnostics', () => topicDiagnostics(document.uri).length >= 10 && topicDiagnostics(document.uri));
    const seen = diagnostics.map((d) => `${String(d.code)} ${vscode.DiagnosticSeverity[d.severity]} ${document.getText(d.range)}`).sort();
    assert.deepStrictEqual(
      seen,
      [
        'spot.misspeltMember Warning "stat"',
        'topic.categoryLabel Error "Oak"',
        'topic.invalidGallery Error "pending"',
        'topic.outOfRange Error 130',
        'topic.undefinedField Warning "fld_7_99"',
        'topic.unknownCategory Error "hail"',
        'topic.wrongType Error "2024-02-30"',
        'topic.wrongType Error "2024-05-31T14:30:00Z"',
        'topic.wrongType Error "yes"',
        'topic.wrongType Error 2.5',
      ].sort(),
    );
    const label = diagnostics.find((d) => d.code === 'topic.categoryLabel')!;
    assert.match(label.message, /"Oak" is the label of key 1 of Species \(fld_7_1\): send the key, 1\./);
    assert.strictEqual(diagnostics.find((d) => d.code === 'spot.misspeltMember')!.message, 'stat is sent as a topic field; did you mean state?');
    // A valid document of the topic has none.
    const oak = await open('topics', 'oak.spot.json');
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.deepStrictEqual(topicDiagnostics(oak.uri), []);
  });

  it('topic completion: field names and category keys, with their labels', async () => {
    const document = await open('topics', 'label.spot.json');
    const editor = vscode.window.activeTextEditor!;
    await editor.edit((edit) => edit.insert(rangeOfText(document, '"fld_7_1"').start, '"fld_7_": 0,\n      '));
    const inName = rangeOfText(document, '"fld_7_"').start.translate(0, 4);
    const fields = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, inName);
    const height = fields.items.map(labelOf).find((item) => item.label === 'fld_7_2');
    assert.deepStrictEqual(height, { label: 'fld_7_2', description: 'Height (m)' });
    assert.ok(fields.items.map(labelOf).some((item) => item.label === 'spotted_at' && item.description === 'Observed at'));
    assert.ok(!fields.items.map(labelOf).some((item) => item.label === 'fld_7_1'), 'a field already there is not offered');

    const atValue = rangeOfText(document, '"Beech"').start.translate(0, 1);
    const keys = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, atValue);
    const ours = keys.items.filter((item) => item.kind === vscode.CompletionItemKind.EnumMember).map(labelOf);
    assert.deepStrictEqual(ours, [
      { label: '1', description: 'Oak' },
      { label: '2', description: 'Beech' },
      { label: '3', description: 'Larch' },
    ]);
  });

  it('topic hover: label, type, description and allowed values', async () => {
    const document = await open('topics', 'oak.spot.json');
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      document.uri,
      rangeOfText(document, '"fld_7_1"').start.translate(0, 3),
    );
    const text = hovers.flatMap((hover) => hover.contents.map((content) => (typeof content === 'string' ? content : content.value))).join('\n');
    assert.match(text, /\*\*Species\*\* `fld_7_1` · category, required/);
    assert.match(text, /Values: `1` Oak · `2` Beech · `3` Larch/);
    const notes = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      document.uri,
      rangeOfText(document, '"fld_7_4"').start.translate(0, 3),
    );
    assert.match(notes.flatMap((hover) => hover.contents.map((content) => (typeof content === 'string' ? content : content.value))).join('\n'), /Free text\./);
  });

  it('topic inlay hints: labels after fld_ names and category keys, off with the setting', async () => {
    const document = await open('topics', 'oak.spot.json');
    const whole = new vscode.Range(0, 0, document.lineCount, 0);
    const hints = await vscode.commands.executeCommand<vscode.InlayHint[]>('vscode.executeInlayHintProvider', document.uri, whole);
    // Each hint with the token it follows: "fld_7_1" Species, 1 Oak.
    const labels = hints.map(
      (hint) => `${/("[^"]*"|[^\s[,]+)$/.exec(document.lineAt(hint.position.line).text.slice(0, hint.position.character))?.[1]} ${String(hint.label)}`,
    );
    for (const expected of ['"fld_7_1" Species', '1 Oak', '"fld_7_2" Height (m)', '"fld_7_3" Photos', '"storm" Storm', '"beetle" Bark beetles']) {
      assert.ok(labels.includes(expected), `${expected} among ${labels.join(' | ')}`);
    }
    assert.ok(!labels.some((label) => label.startsWith('"spotted_at"')), 'names that are not fld_ get no hint');
    const config = vscode.workspace.getConfiguration('spotImport');
    await config.update('topics.inlayHints', false, vscode.ConfigurationTarget.Global);
    try {
      const none = await vscode.commands.executeCommand<vscode.InlayHint[]>('vscode.executeInlayHintProvider', document.uri, whole);
      assert.deepStrictEqual(none, []);
    } finally {
      await config.update('topics.inlayHints', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  describe('topic quick fixes', () => {
    it('renames a misspelt member, and a member the topic does not define', async () => {
      const document = await open('topics', 'misspelt.spot.json');
      await waitFor('two warnings', () => topicDiagnostics(document.uri).length === 2);
      await applyQuickFix(document, rangeOfText(document, '"stat"'), 'Rename stat to state');
      await waitFor('one warning left', () => topicDiagnostics(document.uri).length === 1);
      await applyQuickFix(document, rangeOfText(document, '"spoted_at"'), 'Rename spoted_at to Observed at (spotted_at)');
      assert.match(document.getText(), /"state": 1,/);
      assert.match(document.getText(), /"spotted_at": "2024-05-31 14:30:00"/);
      await assertValidNow(document);
    });

    it('replaces category labels with their keys', async () => {
      const document = await open('topics', 'label.spot.json');
      await waitFor('two label problems', () => topicDiagnostics(document.uri).filter((d) => d.code === 'topic.categoryLabel').length === 2);
      await applyQuickFix(document, rangeOfText(document, '"Beech"'), 'Replace "Beech" with its key 2');
      await waitFor('one label problem left', () => topicDiagnostics(document.uri).length === 1);
      await applyQuickFix(document, rangeOfText(document, '"Drought"'), 'Replace "Drought" with its key "drought"');
      assert.match(document.getText(), /"fld_7_1": 2,/);
      await assertValidNow(document);
    });

    it('adds the required fields of the topic with placeholders', async () => {
      const document = await open('topics', 'required.spot.json');
      const diagnostics = await waitFor('two required fields missing', () => topicDiagnostics(document.uri).length === 2 && topicDiagnostics(document.uri));
      for (const diagnostic of diagnostics) assert.strictEqual(document.getText(diagnostic.range), '"attributes"');
      await applyQuickFix(document, diagnostics[0].range, 'Add the 2 required fields of topic 8 (Benches) (and "state": 2 for the pending gallery)');
      assert.match(document.getText(), /"state": 2,\s*"fld_8_1": 1,\s*"fld_8_2": null/);
      await assertValidNow(document);
    });

    it("sets state 2 when a gallery is pending (the document's own problem)", async () => {
      const document = await open('topics', 'pending.spot.json');
      const pending = await waitFor('the pending-gallery problem', () => spotDiagnostics(document.uri).find((d) => /needs "state": 2/.test(d.message)));
      await applyQuickFix(document, pending.range, /^Set "state": 2/);
      assert.match(document.getText(), /"state": 2,/);
      await assertValidNow(document);
    });

    it('removes a duplicate member (a problem carrying the code spot.duplicateMember)', async () => {
      const document = await open('topics', 'duplicate.spot.json');
      // The document validation's own problem, published by the extension's diagnostics.
      const duplicate = await waitFor('the duplicate-member problem', () => spotDiagnostics(document.uri).find((d) => d.code === 'spot.duplicateMember'));
      assert.deepStrictEqual(duplicate.range, rangeOfText(document, '"fld_7_2"', 'last'));
      await applyQuickFix(document, duplicate.range, 'Remove this duplicate fld_7_2');
      assert.strictEqual(document.getText().split('"fld_7_2"').length, 2);
      assert.match(document.getText(), /"fld_7_2": 12\n/);
      await assertValidNow(document);
    });
  });

  it('topic definition files with problems are reported on themselves, and checks go on; the topicsFolder setting is followed', async () => {
    const problems = await open('topics', 'problems.spot.json');
    await waitFor('topic diagnostics', () => topicDiagnostics(problems.uri).length >= 10);
    const config = vscode.workspace.getConfiguration('spotImport');
    // A folder with a smaller definition of topic 7, a duplicate of it, and two broken files.
    await config.update('topicsFolder', '../topics/broken/spot-topics', vscode.ConfigurationTarget.Global);
    try {
      const broken = (name: string) => vscode.Uri.joinPath(fixtureUri(), '..', 'topics', 'broken', 'spot-topics', name);
      const duplicate = await waitFor('the duplicate topic reported', () =>
        vscode.languages.getDiagnostics(broken('b-duplicate.topic.json')).find((d) => d.source === 'Spot Import'),
      );
      assert.strictEqual(duplicate.code, 'topicDefinition.duplicateTopic');
      assert.strictEqual(duplicate.message, 'topic_id 7 is already defined in a-valid.topic.json; this file is not used.');
      assert.deepStrictEqual([duplicate.range.start.line, duplicate.range.start.character, duplicate.range.end.character], [1, 14, 15]);
      const syntax = vscode.languages.getDiagnostics(broken('c-syntax.topic.json')).filter((d) => d.source === 'Spot Import');
      assert.strictEqual(syntax.length, 1);
      assert.match(syntax[0].message, /^This topic definition is not in use until its problems are fixed: Not valid JSON: comma expected\./);
      const rules = vscode.languages
        .getDiagnostics(broken('d-schema.topic.json'))
        .filter((d) => d.source === 'Spot Import')
        .map((d) => d.message);
      assert.deepStrictEqual(rules.sort(), ['minimum (5) is larger than maximum (1).', 'state is a spot member, not a topic field; remove it from fields.']);
      // The document is now checked against the definition that stayed in use (topic 7 with fld_7_1 only).
      await waitFor('fld_7_2 undefined by the smaller definition', () =>
        topicDiagnostics(problems.uri).some((d) => d.code === 'topic.undefinedField' && problems.getText(d.range) === '"fld_7_2"'),
      );
    } finally {
      await config.update('topicsFolder', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor('back to the workspace definitions', () => !topicDiagnostics(problems.uri).some((d) => problems.getText(d.range) === '"fld_7_2"'));
    assert.deepStrictEqual(
      vscode.languages
        .getDiagnostics(vscode.Uri.joinPath(fixtureUri(), '..', 'topics', 'broken', 'spot-topics', 'b-duplicate.topic.json'))
        .filter((d) => d.source === 'Spot Import'),
      [],
    );
  });

  it('a spot document whose tab was closed gets no topic problems back when the definitions change', async () => {
    const closed = await open('topics', 'problems.spot.json');
    await waitFor('topic diagnostics', () => topicDiagnostics(closed.uri).length >= 10);
    await closeAllEditors();
    await waitFor('cleared with its tab', () => topicDiagnostics(closed.uri).length === 0);
    // Still open: the document that shows when the new definitions are in use.
    const shown = await open('topics', 'undefined-topic.spot.json');
    const added = fixtureUri('spot-topics', '12.topic.json');
    try {
      fs.writeFileSync(added.fsPath, JSON.stringify({ topic_id: 12, fields: { fld_12_2: { label: 'Count', type: 'integer', maximum: 3 } } }));
      await waitFor('topic 12 applied', () => topicDiagnostics(shown.uri).some((d) => d.code === 'topic.outOfRange'), 15_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.deepStrictEqual(topicDiagnostics(closed.uri), [], 'the closed document was checked again');
    } finally {
      fs.rmSync(added.fsPath, { force: true });
    }
    await waitFor('topic 12 gone again', () => topicDiagnostics(shown.uri).length === 0, 15_000);
  });

  it('topic definition files: a new file in spot-topics/ applies at once, a broken one is reported', async () => {
    const document = await open('topics', 'undefined-topic.spot.json');
    const added = fixtureUri('spot-topics', '12.topic.json');
    const broken = fixtureUri('spot-topics', '13.topic.json');
    try {
      fs.writeFileSync(added.fsPath, JSON.stringify({ topic_id: 12, fields: { fld_12_2: { label: 'Count', type: 'integer', maximum: 3 } } }));
      fs.writeFileSync(broken.fsPath, '{ "topic_id": 13, ');
      const outOfRange = await waitFor('topic 12 applied', () => topicDiagnostics(document.uri).find((d) => d.code === 'topic.outOfRange'), 15_000);
      assert.strictEqual(document.getText(outOfRange.range), '4');
      await waitFor(
        'the broken file reported',
        () => vscode.languages.getDiagnostics(broken).some((d) => d.source === 'Spot Import' && /not in use/.test(d.message)),
        15_000,
      );
    } finally {
      fs.rmSync(added.fsPath, { force: true });
      fs.rmSync(broken.fsPath, { force: true });
    }
    await waitFor('topic 12 gone again', () => topicDiagnostics(document.uri).length === 0, 15_000);
    await waitFor('the broken file no longer reported', () => vscode.languages.getDiagnostics(broken).length === 0, 15_000);
  });

  it('a topic definition saved in Latin-1 is reported on itself as the command line reports it, not used with its ü replaced', async () => {
    const document = await open('topics', 'undefined-topic.spot.json');
    const latin1 = fixtureUri('spot-topics', '12.topic.json');
    try {
      // "Grün" in Latin-1: ü is the single byte 0xFC, which is no UTF-8.
      fs.writeFileSync(
        latin1.fsPath,
        Buffer.from('{"topic_id": 12, "name": "Gr\u00fcn", "fields": {"fld_12_2": {"label": "Count", "type": "integer", "maximum": 3}}}', 'latin1'),
      );
      const reported = await waitFor(
        'the Latin-1 file reported',
        () => vscode.languages.getDiagnostics(latin1).find((d) => d.source === 'Spot Import'),
        15_000,
      );
      assert.strictEqual(reported.code, 'topicDefinition.unreadable');
      assert.match(reported.message, /^Could not read the file: .*UTF-8/);
      assert.deepStrictEqual(
        topicDiagnostics(document.uri).filter((d) => d.code === 'topic.outOfRange'),
        [],
        'topic 12 is not used',
      );
    } finally {
      fs.rmSync(latin1.fsPath, { force: true });
    }
    await waitFor('the Latin-1 file no longer reported', () => vscode.languages.getDiagnostics(latin1).length === 0, 15_000);
  });

  it('a topic definition nested 3,000 deep is reported on itself; the other definitions, and one added beside it, apply', async () => {
    const document = await open('topics', 'undefined-topic.spot.json');
    const deep = fixtureUri('spot-topics', '13.topic.json');
    const added = fixtureUri('spot-topics', '12.topic.json');
    try {
      const levels = '['.repeat(3000) + ']'.repeat(3000);
      fs.writeFileSync(deep.fsPath, `{"topic_id": 13, "fields": {"fld_13_1": {"label": "Deep", "type": "category", "values": ${levels}}}}`);
      fs.writeFileSync(added.fsPath, JSON.stringify({ topic_id: 12, fields: { fld_12_2: { label: 'Count', type: 'integer', maximum: 3 } } }));
      await waitFor('topic 12 applied', () => topicDiagnostics(document.uri).some((d) => d.code === 'topic.outOfRange'), 15_000);
      const reported = await waitFor('the deep file reported', () => vscode.languages.getDiagnostics(deep).find((d) => d.source === 'Spot Import'), 15_000);
      assert.strictEqual(reported.message, 'The definition nests objects and arrays more than 64 levels deep; a topic definition needs only a few.');
      const problems = await open('topics', 'problems.spot.json');
      await waitFor('topic 7 still checked', () => topicDiagnostics(problems.uri).some((d) => d.code === 'topic.outOfRange'), 15_000);
    } finally {
      fs.rmSync(deep.fsPath, { force: true });
      fs.rmSync(added.fsPath, { force: true });
    }
    await waitFor('topic 12 gone again', () => topicDiagnostics(document.uri).length === 0, 15_000);
    await waitFor('the deep file no longer reported', () => vscode.languages.getDiagnostics(deep).length === 0, 15_000);
  });

  it('a null field the topic types as a number is no pending gallery: no state-2 error, and Import Spot sends it', async () => {
    // A second sandbox that knows the fixture's topics, as the real service knows its own.
    const topics = (await loadTopicFolder(fixtureUri('spot-topics').fsPath)).catalog;
    const sandbox = await startSandbox({ port: 0, clients: [TEST_CLIENT], topics });
    const typed = fixtureUri('topics', 'null-number.spot.json');
    const untyped = fixtureUri('topics', 'null-untyped.spot.json');
    const document = (topicId: number, field: string, sourceId: string) =>
      JSON.stringify(
        {
          data: { type: 'spots', attributes: { topic_id: topicId, source_id: sourceId, latitude: 47.2, longitude: 11.4, state: 1, fld_7_1: 1, [field]: null } },
        },
        null,
        2,
      ) + '\n';
    fs.writeFileSync(typed.fsPath, document(7, 'fld_7_2', 'topics-null-number'));
    fs.writeFileSync(untyped.fsPath, document(99, 'fld_99_2', 'topics-null-untyped'));
    const profile = await addProfileAt('Topics sandbox', sandbox.baseUrl);
    try {
      await profile.services.profiles.setActive(profile.profile.id);
      // Without a definition (topic 99) the base rule still takes a null fld_ member for a pending gallery.
      await open('topics', 'null-untyped.spot.json');
      await waitFor('the base rule on topic 99', () => spotDiagnostics(untyped).some((d) => d.code === 'spot.pendingNeedsState2'));

      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(typed));
      const run = await installScriptedUi([{ kind: 'info', match: /"topics-null-number"/ }]);
      let result: Core.ImportResult | undefined;
      try {
        result = await vscode.commands.executeCommand<Core.ImportResult>('spotImport.importSpot', typed);
        run.done();
      } finally {
        run.restore();
      }
      assert.deepStrictEqual(result?.pendingGalleries, []);
      assert.strictEqual(sandbox.spotBySourceId('topics-null-number')?.attributes.state, 1);
      assert.strictEqual(sandbox.spotBySourceId('topics-null-number')?.attributes.fld_7_2, null);
      assert.deepStrictEqual(
        spotDiagnostics(typed).filter((d) => d.code === 'spot.pendingNeedsState2'),
        [],
        'no state-2 error on a number field',
      );
    } finally {
      await closeAllEditors();
      await profile.remove();
      await sandbox.close();
      fs.rmSync(typed.fsPath, { force: true });
      fs.rmSync(untyped.fsPath, { force: true });
    }
  });

  it('New Topic Definition from Document writes an inferred definition, and never overwrites one', async () => {
    const document = await open('topics', 'undefined-topic.spot.json');
    const target = fixtureUri('spot-topics', '12.topic.json');
    try {
      const uri = await vscode.commands.executeCommand<vscode.Uri>('spotImport.topics.newDefinitionFromDocument', document.uri);
      assert.strictEqual(uri?.toString(), target.toString());
      assert.strictEqual(vscode.window.activeTextEditor?.document.uri.toString(), target.toString());
      const text = fs.readFileSync(target.fsPath, 'utf8');
      const core = await (await extensionServices()).core();
      const parsed = core.parseTopicDefinition(text);
      assert.deepStrictEqual(parsed.problems, []);
      assert.deepStrictEqual(
        Object.entries(parsed.definition!.fields).map(([name, field]) => [name, field.type, field.label]),
        [
          ['fld_12_1', 'text', ''],
          ['fld_12_2', 'integer', ''],
          ['fld_12_3', 'gallery', ''],
        ],
      );
      // The document matches the definition inferred from it; a value of another type now is a problem.
      const editor = await vscode.window.showTextDocument(document);
      await editor.edit((edit) => edit.replace(rangeOfText(document, '"fld_12_2": 4'), '"fld_12_2": "four"'));
      const wrong = await waitFor('the new definition in use', () => topicDiagnostics(document.uri).find((d) => d.code === 'topic.wrongType'), 15_000);
      assert.strictEqual(document.getText(wrong.range), '"four"');
      fs.writeFileSync(target.fsPath, text.replace('"label": ""', '"label": "Note"'));
      const again = await vscode.commands.executeCommand<vscode.Uri>('spotImport.topics.newDefinitionFromDocument', document.uri);
      assert.strictEqual(again?.toString(), target.toString());
      assert.match(fs.readFileSync(target.fsPath, 'utf8'), /"label": "Note"/);
    } finally {
      // The edited document is reverted and the editors closed by afterEach.
      fs.rmSync(target.fsPath, { force: true });
    }
  });
});
