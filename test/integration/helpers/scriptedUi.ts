// A UiPrompts that answers from a script. Integration tests drive the real commands through the
// real extension host; only the prompts are scripted, and a prompt the script did not expect
// fails the test (it is recorded, answered as a cancel, and reported by assertDone()).
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { UiPrompts } from '../../../src/extension/platform/services';
import type { CommandServices } from '../../../src/extension/commands/commandTable';

export type PromptKind = 'quickPick' | 'quickPickMany' | 'input' | 'openDialog' | 'info' | 'warning' | 'error';

/** Matches the prompt's text: message for messages, title/placeHolder/prompt for pickers and inputs. */
export type TextMatch = string | RegExp | ((text: string) => boolean);

/** Chooses among quick pick items: by label (exact or RegExp), by predicate, or none (undefined = Escape). */
export type ItemChoice = string | RegExp | ((item: vscode.QuickPickItem, index: number) => boolean) | undefined;

export type ScriptStep =
  | { kind: 'quickPick'; match?: TextMatch; pick: ItemChoice }
  | { kind: 'quickPickMany'; match?: TextMatch; pick: ItemChoice[] | undefined }
  /** `rejects`: values the input box's validation must refuse (checked before `answer` is given). */
  | { kind: 'input'; match?: TextMatch; answer: string | undefined; expectPassword?: boolean; rejects?: string[]; expectValue?: string }
  | { kind: 'openDialog'; answer: vscode.Uri[] | undefined }
  /** `beforeAnswer`: what happens while the message is still up (the user switching profiles, say). */
  | { kind: 'info' | 'warning' | 'error'; match?: TextMatch; button?: string; beforeAnswer?: () => Promise<unknown> };

/** What a prompt showed, kept so a test can assert on texts, items and buttons. */
export interface PromptRecord {
  kind: PromptKind;
  text: string;
  items?: string[];
  buttons?: string[];
  detail?: string;
  password?: boolean;
  answer?: unknown;
}

function matches(match: TextMatch | undefined, text: string): boolean {
  if (match === undefined) return true;
  if (typeof match === 'string') return text.includes(match);
  if (match instanceof RegExp) return match.test(text);
  return match(text);
}

function choose<T extends vscode.QuickPickItem>(items: readonly T[], choice: ItemChoice): T | undefined {
  if (choice === undefined) return undefined;
  const found = items.find((item, index) =>
    typeof choice === 'string'
      ? item.label === choice || item.label.includes(choice)
      : choice instanceof RegExp
        ? choice.test(item.label)
        : choice(item, index),
  );
  if (!found) throw new Error(`no quick pick item matches ${String(choice)} among: ${items.map((i) => i.label).join(' | ')}`);
  return found;
}

export class ScriptedUi implements UiPrompts {
  readonly shown: PromptRecord[] = [];
  readonly failures: string[] = [];
  private readonly steps: ScriptStep[];

  constructor(steps: ScriptStep[] = []) {
    this.steps = [...steps];
  }

  /** Appends more expected prompts (for a test that scripts in phases). */
  expect(...steps: ScriptStep[]): this {
    this.steps.push(...steps);
    return this;
  }

  /** Fails if a prompt was unexpected or an expected one never came. */
  assertDone(): void {
    const left = this.steps.map((s) => s.kind + ('match' in s && s.match ? ` ${String(s.match)}` : ''));
    const problems = [...this.failures, ...(left.length ? [`expected prompts never shown: ${left.join(', ')}`] : [])];
    assert.deepStrictEqual(problems, [], `scripted UI:\n${problems.join('\n')}\nshown:\n${this.shown.map((s) => `${s.kind}: ${s.text}`).join('\n')}`);
  }

  /** Takes the next step if it is of this kind and matches; records a failure otherwise. */
  private next<K extends ScriptStep['kind']>(kind: K, record: PromptRecord): Extract<ScriptStep, { kind: K }> | undefined {
    this.shown.push(record);
    const step = this.steps[0];
    if (!step || step.kind !== kind || !matches('match' in step ? step.match : undefined, record.text)) {
      const wanted = step ? `${step.kind}${'match' in step && step.match ? ` ${String(step.match)}` : ''}` : 'nothing';
      this.failures.push(`unexpected ${kind} "${record.text}" (script expected ${wanted})`);
      return undefined;
    }
    this.steps.shift();
    return step as Extract<ScriptStep, { kind: K }>;
  }

  async showQuickPick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<T | undefined> {
    const record: PromptRecord = { kind: 'quickPick', text: options.title ?? options.placeHolder ?? '', items: items.map((i) => i.label) };
    const step = this.next('quickPick', record);
    if (!step) return undefined;
    try {
      const picked = choose(items, step.pick);
      record.answer = picked?.label;
      return picked;
    } catch (error) {
      this.failures.push(String(error));
      return undefined;
    }
  }

  async showQuickPickMany<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<readonly T[] | undefined> {
    const record: PromptRecord = { kind: 'quickPickMany', text: options.title ?? options.placeHolder ?? '', items: items.map((i) => i.label) };
    const step = this.next('quickPickMany', record);
    if (!step || step.pick === undefined) return undefined;
    try {
      const picked = step.pick.map((choice) => choose(items, choice)).filter((i): i is T => i !== undefined);
      record.answer = picked.map((i) => i.label);
      return picked;
    } catch (error) {
      this.failures.push(String(error));
      return undefined;
    }
  }

  async showInputBox(options: vscode.InputBoxOptions): Promise<string | undefined> {
    const record: PromptRecord = { kind: 'input', text: options.title ?? options.prompt ?? options.placeHolder ?? '', password: options.password === true };
    const step = this.next('input', record);
    if (!step) return undefined;
    if (step.expectPassword !== undefined && step.expectPassword !== (options.password === true)) {
      this.failures.push(`input "${record.text}": password box expected ${step.expectPassword}, was ${options.password === true}`);
    }
    if (step.expectValue !== undefined && options.value !== step.expectValue) {
      this.failures.push(`input "${record.text}": prefilled value "${options.value}", expected "${step.expectValue}"`);
    }
    for (const bad of step.rejects ?? []) {
      const verdict = options.validateInput ? await options.validateInput(bad) : undefined;
      const message = typeof verdict === 'string' ? verdict : verdict?.message;
      if (!message) this.failures.push(`input "${record.text}": "${bad}" was accepted, but the script expected it to be refused`);
    }
    if (step.answer !== undefined && options.validateInput) {
      const verdict = await options.validateInput(step.answer);
      const message = typeof verdict === 'string' ? verdict : verdict?.message;
      if (message) {
        this.failures.push(`input "${record.text}": answer rejected by validateInput: ${message}`);
        return undefined;
      }
    }
    record.answer = options.password ? '<password>' : step.answer;
    return step.answer;
  }

  async showOpenDialog(options: vscode.OpenDialogOptions): Promise<vscode.Uri[] | undefined> {
    const record: PromptRecord = { kind: 'openDialog', text: options.title ?? options.openLabel ?? '' };
    const step = this.next('openDialog', record);
    record.answer = step?.answer?.map((u) => u.toString());
    return step?.answer;
  }

  private async message(kind: 'info' | 'warning' | 'error', text: string, buttons: string[], detail?: string): Promise<string | undefined> {
    const record: PromptRecord = { kind, text, buttons, detail };
    const step = this.next(kind, record);
    if (!step) return undefined;
    await step.beforeAnswer?.();
    if (step.button !== undefined && !buttons.includes(step.button)) {
      this.failures.push(`${kind} "${text}": no button "${step.button}" among [${buttons.join(', ')}]`);
      return undefined;
    }
    record.answer = step.button;
    return step.button;
  }

  async showInformationMessage(message: string, ...buttons: string[]): Promise<string | undefined> {
    return this.message('info', message, buttons);
  }

  async showWarningMessage(message: string, options: { modal?: boolean; detail?: string }, ...buttons: string[]): Promise<string | undefined> {
    return this.message('warning', message, buttons, options.detail);
  }

  async showErrorMessage(message: string, ...buttons: string[]): Promise<string | undefined> {
    return this.message('error', message, buttons);
  }
}

/** services.ui is a holder (platform/ui.ts) whose implementation tests swap. */
interface SwappableUi extends UiPrompts {
  use(implementation: UiPrompts): { dispose(): void };
}

/** The extension's live services, through the test-only command. Activates the extension. */
export async function extensionServices(): Promise<CommandServices> {
  const services = await vscode.commands.executeCommand<CommandServices>('spotImport.test.services');
  assert.ok(services, 'spotImport.test.services returned nothing (is SPOT_IMPORT_TEST=1 or test mode set?)');
  return services;
}

/**
 * Installs a scripted UI into the running extension. Call `done()` at the end of the test: it
 * restores the previous UI and fails on unexpected or missing prompts. `restore()` only restores
 * (for afterEach after a failure).
 */
export async function installScriptedUi(steps: ScriptStep[] = []): Promise<{ ui: ScriptedUi; services: CommandServices; restore(): void; done(): void }> {
  const services = await extensionServices();
  const holder = services.ui as Partial<SwappableUi>;
  assert.strictEqual(typeof holder.use, 'function', 'services.ui cannot be swapped');
  const ui = new ScriptedUi(steps);
  const handle = holder.use!(ui);
  let restored = false;
  const restore = () => {
    if (!restored) handle.dispose();
    restored = true;
  };
  return {
    ui,
    services,
    restore,
    done: () => {
      restore();
      ui.assertDone();
    },
  };
}
