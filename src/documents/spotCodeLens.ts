// "Import Spot" above the first line of every spot document, naming the profile it would go to,
// so importing never needs the palette and the destination is visible before the click.
import * as vscode from 'vscode';
import { loadCore } from '../platform/lazyCore';
import { profileLabel, type ProfileStore } from '../platform/services';
import { isSpotDocument, mightBeSpotDocument } from './spotDocuments';

export class SpotCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly profiles: ProfileStore) {
    this.subscription = profiles.onDidChange(() => this.changed.fire());
  }

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    if (!mightBeSpotDocument(document)) return [];
    if (!isSpotDocument(await loadCore(), document)) return [];
    const profile = this.profiles.active();
    const title = profile ? `$(cloud-upload) Import Spot to ${profileLabel(profile)}` : '$(cloud-upload) Import Spot';
    const top = new vscode.Range(0, 0, 0, 0);
    return [new vscode.CodeLens(top, { title, command: 'spotImport.importSpot', arguments: [document.uri], tooltip: 'Validate this document and send it to the spot import endpoint' })];
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

export function registerSpotCodeLens(context: vscode.ExtensionContext, profiles: ProfileStore): void {
  const provider = new SpotCodeLensProvider(profiles);
  context.subscriptions.push(
    provider,
    // Files and untitled documents only, as for diagnostics: not the old side of a diff or a git: copy.
    vscode.languages.registerCodeLensProvider(
      ['file', 'untitled'].flatMap((scheme) => [{ scheme, language: 'json' }, { scheme, language: 'jsonc' }, { scheme, pattern: '**/*.spot.json' }]),
      provider,
    ),
  );
}
