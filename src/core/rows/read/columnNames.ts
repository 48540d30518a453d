// Column names from a header's cells. Values are looked up by name, so every column needs one, and
// one of its own: an empty header cell (a spreadsheet's unnamed column) is called "column N" by its
// 1-based place, and a name already taken gets " (2)", " (3)"… in file order. Each such name is
// said in words, for SourceTable.detected, so the user knows where it came from.

export function columnNames(cells: readonly string[]): { columns: string[]; notes: string[] } {
  const columns: string[] = [];
  const notes: string[] = [];
  const taken = new Set<string>();
  cells.forEach((cell, i) => {
    const base = cell === '' ? `column ${i + 1}` : cell;
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base} (${n})`;
    taken.add(name);
    columns.push(name);
    if (cell === '') notes.push(`column ${i + 1} has no name in the header: called "${name}"`);
    else if (name !== cell) notes.push(`column ${i + 1} repeats the name "${cell}": called "${name}"`);
  });
  return { columns, notes };
}
