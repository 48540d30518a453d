// Results go to stdout as they come, in batches: one write per batch of lines rather than one per
// line keeps 100,000 results cheap, and nothing is held longer than the current turn of the loop.
export class LineWriter {
  private pending: string[] = [];
  private size = 0;
  private scheduled = false;

  /** `beforeWrite`: called just before each write (a progress bar on the same terminal steps aside). */
  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly beforeWrite?: () => void,
  ) {}

  line(text: string): void {
    this.pending.push(text);
    this.size += text.length + 1;
    if (this.size >= 64 * 1024) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Writes what is pending and resolves once the stream has taken it (before the process exits). */
  end(): Promise<void> {
    this.flush();
    return new Promise((resolve) => this.stream.write('', () => resolve()));
  }

  private flush(): void {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const chunk = this.pending.join('\n') + '\n';
    this.pending = [];
    this.size = 0;
    this.beforeWrite?.();
    this.stream.write(chunk);
  }
}
