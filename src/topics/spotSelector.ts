// The documents the topic features attach to: the same as the spot document CodeLens (files and
// untitled documents only, not the old side of a diff or a git: copy).
import type * as vscode from 'vscode';

export const SPOT_DOCUMENT_SELECTOR: vscode.DocumentSelector = ['file', 'untitled'].flatMap((scheme) => [
  { scheme, language: 'json' },
  { scheme, language: 'jsonc' },
  { scheme, pattern: '**/*.spot.json' },
]);
