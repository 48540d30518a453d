// Which documents the extension checks and assists (diagnostics, CodeLens, completion, hovers,
// inlay hints, quick fixes), in one place: files on disk, untitled documents, and the documents
// of the window's own folders whatever their file system (a virtual workspace opened from GitHub
// or another remote file system has no files on disk: its documents are theirs). Not the old side
// of a diff or a git: copy, nor our own previews: those are in no folder under their scheme.
import * as vscode from 'vscode';

const ALWAYS = ['file', 'untitled'];

/** Whether the document at `uri` is one the extension checks. */
export function isCheckedDocument(uri: vscode.Uri): boolean {
  return ALWAYS.includes(uri.scheme) || vscode.workspace.getWorkspaceFolder(uri) !== undefined;
}

/**
 * The schemes a document selector takes, as the window's folders are when it is made (a folder of
 * another file system added later is checked, its providers follow on the next window).
 */
export function checkedSchemes(): string[] {
  return [...new Set([...ALWAYS, ...(vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.scheme)])];
}

/** A selector of the spot documents (JSON, JSONC, *.spot.json) of the checked schemes. */
export function spotDocumentSelector(): vscode.DocumentFilter[] {
  return checkedSchemes().flatMap((scheme) => [
    { scheme, language: 'json' },
    { scheme, language: 'jsonc' },
    { scheme, pattern: '**/*.spot.json' },
  ]);
}
