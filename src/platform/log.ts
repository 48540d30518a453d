// The one log of the extension: a LogOutputChannel (levels, timestamps, a file on disk) named
// after the extension. Every line is redacted before it is handed to VS Code, because once
// written, the channel's file cannot be cleaned.
import * as vscode from 'vscode';
import { formatDetail, Redactor } from './redact';
import type { Logger } from './services';

export const LOG_CHANNEL_NAME = 'Spot Import';

export class ChannelLogger implements Logger, vscode.Disposable {
  private readonly redactor = new Redactor();

  constructor(private readonly channel: vscode.LogOutputChannel = vscode.window.createOutputChannel(LOG_CHANNEL_NAME, { log: true })) {}

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
