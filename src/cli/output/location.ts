// Character offsets (what the core's located problems carry) turned into 1-based lines and
// columns, the way editors, SARIF (columnKind utf16CodeUnits) and GitHub annotations count them.

export interface Position {
  line: number;
  column: number;
}

export interface Region {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** Line starts of one text, found once, for any number of lookups. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(private readonly text: string) {
    for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) this.starts.push(index + 1);
  }

  position(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle] <= clamped) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: clamped - this.starts[low] + 1 };
  }

  /** The span of `length` characters at `offset`; the end column is exclusive, as SARIF's is. */
  region(offset: number, length: number): Region {
    const start = this.position(offset);
    const end = this.position(offset + Math.max(0, length));
    return { line: start.line, column: start.column, endLine: end.line, endColumn: end.column };
  }
}

export function offsetToPosition(text: string, offset: number): Position {
  return new LineIndex(text).position(offset);
}
