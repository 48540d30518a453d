// Column names from a header's cells. Values are looked up by name, so every column needs one, and
// one of its own: an empty header cell (a spreadsheet's unnamed column) is called "column N" by its
// 1-based place, and a name already taken gets " (2)", " (3)"… in file order, skipping names the
// header has itself. Each such name is
// said in words, for SourceTable.detected, so the user knows where it came from. The names are
// English in every language ("column 2"): a mapping names columns by them, and a mapping written in
// the editor must mean the same on the command line. Names are composed (NFC), as typed names are.
import { l10n } from '../../text/l10n';

export function columnNames(cells: readonly string[]): { columns: string[]; notes: string[] } {
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
    if (cell === '') notes.push(l10n.t('column {0} has no name in the header: called "{1}"', i + 1, name));
    else if (name !== cell) notes.push(l10n.t('column {0} repeats the name "{1}": called "{2}"', i + 1, cell, name));
  });
  return { columns, notes };
}
