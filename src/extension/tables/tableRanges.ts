// Where a table's problems and hovers go in the editor: a cell's range on its line (the reader
// keeps where a cell starts; its end is found on the line), a mapping problem's range from its
// offset, and the diagnostic for either. A workbook's view (Show Rows) is CSV whose cells the
// reader places by column number, not by character: its ranges are found by its fields.
import * as vscode from 'vscode';
import { DIAGNOSTIC_SOURCE } from '../platform/diagnosticSource';
import { isSheetView } from './sheetViewUri';

/**
 * A cell's text on its line, from its first character (the reader keeps where a cell starts, not
 * where it ends): a CSV cell to its closing quote or the next delimiter (the table's own: a
 * semicolon table's cells hold decimal commas), a JSON value to its end; one character when the
 * table is not open. In a workbook's view `column` is the cell's column number (C is 3): its field.
 */
export function cellRange(table: vscode.Uri, line: number, column: number, delimiter?: string): vscode.Range {
  const text = lineText(table, line);
  if (isSheetView(table)) return sheetCellRange(text ?? '', line, column);
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

/** The column (1-based, as the reader numbers a workbook's columns) of the field at `position` of a view's line. */
export function sheetColumnAt(document: vscode.TextDocument, position: vscode.Position): number {
  const fields = csvFields(document.lineAt(position.line).text);
  let column = 1;
  while (column < fields.length && fields[column][0] <= position.character) column++;
  return column;
}

/** A view's cell (line = row, column = the field's number): its field, at least one character; the line's end past its last field. */
function sheetCellRange(text: string, line: number, column: number): vscode.Range {
  const field = csvFields(text)[column - 1] ?? [text.length, text.length];
  return new vscode.Range(line - 1, field[0], line - 1, Math.max(field[1], field[0] + 1));
}

/** Where each field of a view's line starts and ends: comma-separated, quotes as RFC 4180 doubles them (no line breaks: the view has none in a field). */
function csvFields(text: string): Array<[number, number]> {
  const fields: Array<[number, number]> = [];
  let start = 0;
  let quoted = false;
  for (let at = 0; at <= text.length; at++) {
    if (text[at] === '"') quoted = !quoted;
    else if (at === text.length || (text[at] === ',' && !quoted)) {
      fields.push([start, at]);
      start = at + 1;
    }
  }
  return fields;
}

function lineText(table: vscode.Uri, line: number): string | undefined {
  const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === table.toString());
  return open && line - 1 < open.lineCount ? open.lineAt(line - 1).text : undefined;
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
