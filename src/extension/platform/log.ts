// The one log of the extension: a LogOutputChannel (levels, timestamps, a file on disk) named
// after the extension. Every line is redacted before it is handed to VS Code, because once
// written, the channel's file cannot be cleaned. Its redactor is the one every notification
// passes too (sharedRedactor), so a secret registered here is masked there as well.
import * as vscode from 'vscode';
import { formatDetail, sharedRedactor, type Redactor } from './redact';
import type { Logger } from './services';

const LOG_CHANNEL_NAME = 'Spot Import';

export class ChannelLogger implements Logger, vscode.Disposable {
  constructor(
    private readonly channel: vscode.LogOutputChannel = vscode.window.createOutputChannel(LOG_CHANNEL_NAME, { log: true }),
    private readonly redactor: Redactor = sharedRedactor,
  ) {}

  addSecret(value: string): void {
    this.redactor.add(value);
  }

  trace(component: string, message: string, ...details: unknown[]): void {
    this.channel.trace(this.line(component, message, details));
  }

  info(component: string, message: string, ...details: unknown[]): void {
    this.channel.info(this.line(component, message, details));
  }

  warn(component: string, message: string, ...details: unknown[]): void {
    this.channel.warn(this.line(component, message, details));
  }

  error(component: string, message: string, ...details: unknown[]): void {
    this.channel.error(this.line(component, message, details));
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }

  /** Exposed for tests that check what would be written. */
  redact(text: string): string {
    return this.redactor.redact(text);
  }

  private line(component: string, message: string, details: unknown[]): string {
    const text = details.length > 0 ? `${message} ${details.map(formatDetail).join(' ')}` : message;
    return `[${component}] ${this.redactor.redact(text)}`;
  }
}
