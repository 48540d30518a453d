// What the e2e tests of tables in the editor (a CSV, a workbook's Show Rows view) read off the
// workbench: the active editor, the cursor's place, its CodeLens, the Problems panel's entries.
import { clearNotifications, page } from './workbench';

export function activeEditor() {
  return page().locator('.part.editor .editor-group-container.active .monaco-editor').first();
}

/** The status bar's cursor position ("Ln 4, Col 31"). */
export function cursorStatus() {
  return page().locator('.part.statusbar .statusbar-item#status\\.editor\\.selection');
}

/** Toasts cleared before a picture (a notification from around the workspace comes whenever it likes). */
export async function withoutToasts(): Promise<void> {
  if (await page().locator('.notifications-toasts .notification-toast').first().isVisible()) await clearNotifications();
}

/** The text of the active editor's CodeLens that holds `wanted` (codicons are elements, not text). */
export async function codeLensText(wanted: string, timeout = 30_000): Promise<string> {
  const lens = activeEditor().locator('.codelens-decoration', { hasText: wanted }).first();
  await lens.waitFor({ state: 'visible', timeout });
  return ((await lens.textContent()) ?? '').replace(/\u00a0/g, ' ');
}

/** The Problems panel's entries under a file (its rows one level below the file's row, in list order). */
export async function problemsOf(file: string): Promise<string[]> {
  return page()
    .locator('.part.panel .markers-panel')
    .first()
    .evaluate((panel, file) => {
      const rows = Array.from(panel.querySelectorAll<HTMLElement>('.monaco-list-row[data-index]'))
        .map((row) => ({
          index: Number(row.dataset.index),
          level: Number(row.getAttribute('aria-level') ?? 0),
          text: (row.textContent ?? '').replace(/\u00a0/g, ' '),
        }))
        .sort((a, b) => a.index - b.index);
      const at = rows.findIndex((row) => row.level === 1 && row.text.includes(file));
      if (at < 0) return [];
      const found: string[] = [];
      for (const row of rows.slice(at + 1)) {
        if (row.level <= 1) break;
        found.push(row.text);
      }
      return found;
    }, file);
}
