// Where a table's problems and hovers go in the editor: a cell's range on its line (the reader
// keeps where a cell starts; its end is found on the line), a mapping problem's range from its
// offset, and the diagnostic for either.
import * as vscode from 'vscode';
import { DIAGNOSTIC_SOURCE } from '../platform/diagnosticSource';

/**
 * A cell's text on its line, from its first character (the reader keeps where a cell starts, not
 * where it ends): a CSV cell to its closing quote or the next delimiter (the table's own: a
 * semicolon table's cells hold decimal commas), a JSON value to its end; one character when the
 * table is not open.
 */
export function cellRange(table: vscode.Uri, line: number, column: number, delimiter?: string): vscode.Range {
  const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === table.toString());
  const text = open && line - 1 < open.lineCount ? open.lineAt(line - 1).text : undefined;
  const start = column - 1;
  let end = start + 1;
  if (text !== undefined && start < text.length) {
    const cell = text.slice(start);
    const string = delimiter !== undefined ? /^"(?:[^"]|"")*"?/ : /^"(?:[^"\\]|\\.)*"?/;
    const quoted = cell.startsWith('"') ? string.exec(cell)?.[0] : undefined;
    const plain = delimiter !== undefined ? cell.split(delimiter)[0] : /^[^,}\]]*/.exec(cell)?.[0].trimEnd();
    end = start + Math.max(1, (quoted ?? plain ?? '').length);
  }
  return new vscode.Range(line - 1, start, line - 1, end);
}

export function offsetRange(text: string, offset: number, length: number): vscode.Range {
  const position = (at: number) => {
    const before = text.slice(0, at);
    const line = before.split(/\r\n|\r|\n/).length - 1;
    return new vscode.Position(line, at - Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) - 1);
  };
  return new vscode.Range(position(offset), position(offset + Math.max(1, length)));
}

export function diagnosticAt(range: vscode.Range, message: string, severity: 'error' | 'warning', rule: string, file?: string): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(range, message, severity === 'warning' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Error);
  diagnostic.source = DIAGNOSTIC_SOURCE;
  diagnostic.code = rule;
  if (file)
    diagnostic.relatedInformation = [
      new vscode.DiagnosticRelatedInformation(new vscode.Location(vscode.Uri.file(file), new vscode.Position(0, 0)), vscode.l10n.t('the photo')),
    ];
  return diagnostic;
}
