// What the imports need of the editor's checks: the topic definitions in effect for a document or
// folder, and a check of a document that shows its problems at once (not after the debounce), so
// the import refuses exactly what the Problems panel shows. Built once at activation (the running
// diagnostics, spotDiagnostics.ts) and handed to the commands.
import type * as vscode from 'vscode';
import type * as Core from '../../core';

export interface SpotChecker {
  /** The topic definitions for a document or folder; none (the base rules alone) when they cannot be read. */
  topicsFor(uri: vscode.Uri): Promise<Core.TopicCatalog | undefined>;
  /** Fires after topic definitions were read (the first time too, and when nothing changed): what topicsFor gives may differ. */
  readonly onDidChangeTopics: vscode.Event<void>;
  /** Parses and checks the document now and shows its problems (Import Spot). */
  checkNow(core: typeof Core, document: vscode.TextDocument): Promise<Core.ParsedSpotText>;
  /** Checks the document with its media folder now and shows its problems (Import Spot with Media). */
  checkMediaNow(core: typeof Core, document: vscode.TextDocument): Promise<Core.SpotMediaCheck>;
}
