// Hovers on the cells of a table with a mapping: which attribute of the spot the cell becomes, and
// the value that will be sent (a category's key for its label, a date in the field's format,
// degrees for a national grid's metres), the photos it names, and the row's spot. The row is
// checked as the import checks it (TableChecks.rowAt), so the hover never says what the import would not do.
import * as vscode from 'vscode';
import { escapeMarkdown, inlineCode } from '../../core/text/markdown';
import { isSheetView } from './sheetViewUri';
import type { TableChecks } from './tableChecks';
import { isTableUri } from './tableUris';
import { cellRange, sheetColumnAt } from './tableRanges';

/** JSON-lines formats put one value per line (a workbook's view one row): a hover there is on the cell of its own line only. */
const ONE_VALUE_PER_LINE = /\.(geojson|geojsonl|geojsons|ndjson|jsonl)$/i;

export class TableHovers implements vscode.HoverProvider {
  constructor(private readonly checks: TableChecks) {}

  async provideHover(document: vscode.TextDocument, position: vscode.Position, token: vscode.CancellationToken): Promise<vscode.Hover | undefined> {
    if (!isTableUri(document.uri) || !this.checks.state(document.uri)) return undefined;
    const found = await this.checks.rowAt(document.uri, position.line + 1);
    if (!found || token.isCancellationRequested) return undefined;
    const { checked, row, rows, topics } = found;
    // A workbook's view places cells by their column's number, not their character.
    const at = { line: position.line + 1, column: isSheetView(document.uri) ? sheetColumnAt(document, position) : position.character + 1 };
    const cells = { ...row.cells, ...(row.geometry ? { geometry: row.geometry.position } : {}) };
    const cell = rows.cellAt(cells, at);
    const oneRowPerLine = ONE_VALUE_PER_LINE.test(document.uri.path) || isSheetView(document.uri);
    if (!cell || (oneRowPerLine && cell.position.line !== at.line)) return undefined;
    const uses = checked.spot ? rows.usesOfCell(checked.spot, cell.position) : { attributes: [], photos: [] };
    const topicId = checked.spot ? (JSON.parse(checked.spot.text) as { data: { attributes: { topic_id?: unknown } } }).data.attributes.topic_id : undefined;
    const definition = typeof topicId === 'number' ? topics?.get(topicId) : undefined;

    const markdown = new vscode.MarkdownString();
    const heading = checked.sourceId
      ? vscode.l10n.t('**{0}** → spot {1}', escapeMarkdown(checked.label), inlineCode(checked.sourceId))
      : `**${escapeMarkdown(checked.label)}**`;
    markdown.appendMarkdown(`${heading}\n\n`);
    const column =
      cell.column === 'geometry'
        ? vscode.l10n.t({ message: 'the geometry', args: [], comment: ["where a cell's value comes from when it is the row's geometry, not a column"] })
        : vscode.l10n.t('column {0}', inlineCode(cell.column));
    if (uses.attributes.length === 0 && uses.photos.length === 0) {
      markdown.appendMarkdown(`${vscode.l10n.t('{0}: not sent (the mapping does not use it)', column)}\n\n`);
    }
    for (const use of uses.attributes) {
      const label = definition && Object.hasOwn(definition.fields, use.attribute) ? definition.fields[use.attribute].label : undefined;
      const name = `${inlineCode(use.attribute)}${label ? ` (${escapeMarkdown(label)})` : ''}`;
      if (use.value === undefined) markdown.appendMarkdown(`${vscode.l10n.t('{0} → {1}: not sent (the cell has a problem)', column, name)}\n\n`);
      else if (use.value === null) markdown.appendMarkdown(`${vscode.l10n.t('{0} → {1}: a gallery, filled after the import', column, name)}\n\n`);
      else markdown.appendMarkdown(`${column} → ${name} = ${inlineCode(JSON.stringify(use.value))}\n\n`);
    }
    if (uses.photos.length > 0) {
      const links = uses.photos.map((path) => `[${escapeMarkdown(path.split(/[\\/]/).pop() ?? path)}](${vscode.Uri.file(path).toString()})`).join(', ');
      markdown.appendMarkdown(`${vscode.l10n.t('Photos, in this order: {0}', links)}\n\n`);
    }
    const errors = checked.findings.filter((finding) => finding.severity === 'error').length;
    markdown.appendMarkdown(
      errors === 0
        ? vscode.l10n.t('The row is imported as this spot (Preview Spots shows the document).')
        : errors === 1
          ? vscode.l10n.t('The row is not imported: 1 problem (Problems panel).')
          : vscode.l10n.t('The row is not imported: {0} problems (Problems panel).', errors),
    );
    return new vscode.Hover(markdown, cellRange(document.uri, cell.position.line, cell.position.column, this.checks.state(document.uri)?.delimiter));
  }
}
