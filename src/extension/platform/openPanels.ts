// The webview panels a feature has open, by what they show: a second command for the same target
// brings its panel forward instead of opening another. The extension makes one per kind of panel
// and disposes it at deactivation, which closes the panels still open.

/** What the registry needs of a panel: its webview panel, to bring forward and to close. */
export interface KeyedPanel {
  readonly panel: { reveal(): void; dispose(): void };
}

export class OpenPanels<P extends KeyedPanel> {
  private readonly byKey = new Map<string, P>();

  /** The open panel for `key`, brought forward; undefined when none is open. */
  reveal(key: string): P | undefined {
    const open = this.byKey.get(key);
    open?.panel.reveal();
    return open;
  }

  /** Keeps the panel `make` returns under `key`; `closed`, which `make` hands to the panel, forgets it. */
  add(key: string, make: (closed: () => void) => P): P {
    const made: P = make(() => {
      if (this.byKey.get(key) === made) this.byKey.delete(key);
    });
    this.byKey.set(key, made);
    return made;
  }

  get size(): number {
    return this.byKey.size;
  }

  dispose(): void {
    const open = [...this.byKey.values()];
    this.byKey.clear();
    for (const each of open) each.panel.dispose();
  }
}
