// Create Mapping: a mapping made from the table's header and first rows, or from the first photos
// of a folder of geotagged photos (the core's guessMapping, as `spot-import mapping` does),
// written beside the table (or folder) for the user to complete,
// and opened; each guess is said, so a person knows what to check before the first import. An
// existing mapping is opened, never written over.
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import { ActionableError, describeError } from '../../platform/errors';
import { loadRows } from '../../platform/lazyRows';
import type { CommandServices } from '../../commands/commandTable';
import { tableTarget } from './tableTarget';

export async function createMapping(services: CommandServices, arg?: unknown): Promise<vscode.Uri> {
  const target = await tableTarget(arg);
  const mappingName = vscode.workspace.asRelativePath(target.mapping, false);
  if (await exists(target.mapping.fsPath)) return openExisting(services, target.mapping, mappingName);
  const rows = await loadRows();
  let preview;
  try {
    // A workbook's sheet with coordinates, as `spot-import mapping` takes it.
    preview = await rows.previewForMapping(target.table.fsPath);
  } catch (error) {
    throw new ActionableError(
      vscode.l10n.t('{0} cannot be read as a table: {1}', target.name, error instanceof rows.TableReadError ? error.reason : describeError(error)),
    );
  }
  const topics = await services.checker.topicsFor(target.table);
  const guessed = await rows.guessMapping(preview.table, preview.sample, topics);
  const mapping = guessed.mapping;
  const notes = [...preview.notes, ...guessed.notes];
  try {
    await fs.writeFile(target.mapping.fsPath, rows.mappingText(mapping), { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
      throw new ActionableError(vscode.l10n.t('{0} cannot be written: {1}', mappingName, describeError(error)));
    return openExisting(services, target.mapping, mappingName);
  }
  services.log.info('rows', `made ${mappingName} from the header and first rows of ${target.name}`, notes);
  await vscode.window.showTextDocument(target.mapping, { preview: false });
  const made =
    preview.table.format.format === 'photos'
      ? vscode.l10n.t('Made {0} from the first photos of {1}. Check what was guessed: {2}.', mappingName, target.name, notes.join('; '))
      : vscode.l10n.t('Made {0} from the header and first rows of {1}. Check what was guessed: {2}.', mappingName, target.name, notes.join('; '));
  void services.ui.showInformationMessage(made);
  return target.mapping;
}

/** An existing mapping is opened as it is, never written over. */
async function openExisting(services: CommandServices, mapping: vscode.Uri, mappingName: string): Promise<vscode.Uri> {
  await vscode.window.showTextDocument(mapping, { preview: false });
  void services.ui.showInformationMessage(vscode.l10n.t('{0} exists already: it is open, as it was.', mappingName));
  return mapping;
}

function exists(path: string): Promise<boolean> {
  return fs.stat(path).then(
    () => true,
    () => false,
  );
}
