// Which table a row command acts on: the Uri it was given (CodeLens, Explorer, editor title), a
// mapping's table, or the table in the active editor; and its mapping beside it. A workbook's view
// (Show Rows) stands for its workbook: the command reads the file, and finds the view's checks.
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import { mappingPathFor, tableCandidatesFor } from '../../../core/rows/mapping/mappingPath';
import { supportedTables, unsupportedFile, unsupportedReason } from '../../../core/rows/read/fileFormats';
import { COMMAND } from '../../platform/commandIds';
import { UserCancelledError } from '../../platform/cancellation';
import { ActionableError } from '../../platform/errors';
import { tableFileOf } from '../sheetViewUri';
import { isMappingUri, isTableUri } from '../tableUris';

export interface TableTarget {
  /** The table's file. */
  table: vscode.Uri;
  /** The document the editor's checks of it are kept for: the file, or the workbook's view the command was given. */
  document: vscode.Uri;
  mapping: vscode.Uri;
  /** The table as messages name it (relative to the workspace). */
  name: string;
}

export async function tableTarget(arg: unknown): Promise<TableTarget> {
  const given = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  // A format known and not read (a KML, a GeoPackage, KoBoToolbox's API JSON): what it is, and what to do in the tool that made it.
  const unsupported = given?.scheme === 'file' ? unsupportedFile(given.fsPath) : undefined;
  if (unsupported)
    throw new ActionableError(
      vscode.l10n.t('{0} cannot be read as a table: {1}', vscode.workspace.asRelativePath(given!, false), unsupportedReason(unsupported)),
    );
  // A file the command was given (the Explorer's menu on occurrence.txt) is taken whatever its name says.
  let table = given && isTableUri(given, arg instanceof vscode.Uri) ? given : undefined;
  // A folder the command was given (the Explorer's menu) is a folder of photos, with or without its mapping yet.
  if (!table && arg instanceof vscode.Uri && arg.scheme === 'file' && (await isFolder(arg))) table = arg;
  if (given && isMappingUri(given)) {
    for (const candidate of tableCandidatesFor(given.fsPath)) {
      if (await exists(candidate)) {
        table = vscode.Uri.file(candidate);
        break;
      }
    }
    if (!table)
      throw new ActionableError(
        vscode.l10n.t(
          '{0} is a mapping, and no table is beside it: a mapping trees.mapping.json is for trees.csv (or trees.geojson, …).',
          vscode.workspace.asRelativePath(given, false),
        ),
      );
  }
  if (!table)
    throw new ActionableError(
      vscode.l10n.t('Open a table to import its rows, with its mapping beside it (trees.csv and trees.mapping.json): {0}.', supportedTables()),
    );
  const file = tableFileOf(table);
  return { table: file, document: table, mapping: vscode.Uri.file(mappingPathFor(file.fsPath)), name: vscode.workspace.asRelativePath(file, false) };
}

/** The table's mapping must exist: without one, the way to make it. */
export async function requireMapping(target: TableTarget): Promise<void> {
  if (await exists(target.mapping.fsPath)) return;
  throw new ActionableError(
    vscode.l10n.t(
      "{0} has no mapping yet: {1} says which column is which. Create one from the table's header, then complete it.",
      target.name,
      vscode.workspace.asRelativePath(target.mapping, false),
    ),
    [{ title: vscode.l10n.t('Create Mapping for this File'), command: COMMAND.createMapping, args: [target.table] }],
  );
}

/**
 * Unsaved edits of the table or its mapping: saved first (with the user's yes), since the import
 * reads the files. `confirm` gets the names of the unsaved files (one or both).
 */
export async function saveFirst(target: TableTarget, confirm: (names: string[]) => Promise<boolean>): Promise<void> {
  const dirty = vscode.workspace.textDocuments.filter(
    (document) => document.isDirty && [target.table.toString(), target.mapping.toString()].includes(document.uri.toString()),
  );
  if (dirty.length === 0) return;
  if (!(await confirm(dirty.map((document) => vscode.workspace.asRelativePath(document.uri, false))))) throw new UserCancelledError();
  for (const document of dirty) {
    if (!(await document.save()))
      throw new ActionableError(vscode.l10n.t('{0} could not be saved: nothing was imported.', vscode.workspace.asRelativePath(document.uri, false)));
  }
}

function isFolder(uri: vscode.Uri): Promise<boolean> {
  return fs.stat(uri.fsPath).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
}

function exists(path: string): Promise<boolean> {
  return fs.stat(path).then(
    (stats) => stats.isFile(),
    () => false,
  );
}
