// Column names from a header's cells. Values are looked up by name, so every column needs one, and
// one of its own: an empty header cell (a spreadsheet's unnamed column) is called "column N" by its
// 1-based place, and a name already taken gets " (2)", " (3)"… in file order, skipping names the
// header has itself; so does each column under a workbook's merged header cell, whose cell holds
// the merged cell's name ("Location", "Location (2)"). Each such name is said in words, for
// SourceTable.detected, so the user knows where it came from. The names are
// English in every language ("column 2"): a mapping names columns by them, and a mapping written in
// the editor must mean the same on the command line. Names are composed (NFC), as typed names are.
import { l10n } from '../../text/l10n';

/** `merged`: the columns (0-based) under a merged header cell other than its first, with the merged range ("B1:C1"). */
export function columnNames(cells: readonly string[], merged: ReadonlyMap<number, string> = new Map()): { columns: string[]; notes: string[] } {
  const columns: string[] = [];
  const notes: string[] = [];
  const taken = new Set<string>();
  // A name made up for a column is never one the header writes itself, before or after it.
  const written = new Set(cells.map((cell) => cell.normalize('NFC')));
  cells.forEach((headerCell, i) => {
    // Composed (NFC), as a mapping is typed: a Mac writes "Länge" decomposed (a, U+0308) in headers too.
    const cell = headerCell.normalize('NFC');
    const base = cell === '' ? `column ${i + 1}` : cell;
    let name = base;
    const madeUp = (candidate: string) => taken.has(candidate) || (candidate !== cell && written.has(candidate));
    for (let n = 2; madeUp(name); n++) name = `${base} (${n})`;
    taken.add(name);
    columns.push(name);
    const range = merged.get(i);
    if (range !== undefined) notes.push(l10n.t('column {0} is under the merged header cell "{1}" ({2}): called "{3}"', i + 1, cell, range, name));
    else if (cell === '') notes.push(l10n.t('column {0} has no name in the header: called "{1}"', i + 1, name));
    else if (name !== cell) notes.push(l10n.t('column {0} repeats the name "{1}": called "{2}"', i + 1, cell, name));
  });
  return { columns, notes };
}
