// What converting one cell of a table gives: a value (perhaps with a warning the caller may show at
// the cell), a problem that says what is wrong with the cell, or no value at all. The messages
// quote the cell, so a caller places them at the cell without adding to them.

/** A cell that holds nothing but spaces: no value, which only a required field minds. */
export interface NoValue {
  readonly empty: true;
}

export type CellResult<T> = { value: T; warning?: string } | { problem: string } | NoValue;

export const NO_VALUE: NoValue = Object.freeze({ empty: true });

/** The one rule for an empty cell, for every conversion. */
export function isEmptyCell(text: string): boolean {
  return text.trim() === '';
}
