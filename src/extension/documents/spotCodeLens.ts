// "Import Spot" above the first line of every spot document, naming the profile it would go to,
// so importing never needs the palette and the destination is visible before the click; beside it
// "Import with N media" when the document has a media folder (one readdir, no file read).
import * as vscode from 'vscode';
import { spotDocumentSelector } from '../platform/checkedDocuments';
import { loadCore } from '../platform/lazyCore';
import { profileLabel, type ProfileStore } from '../platform/domain';
import { isSpotDocument, mightBeSpotDocument } from './spotDocuments';
import type { DisposableStore } from '../platform/lifecycle';
import { COMMAND } from '../platform/commandIds';
import type { MediaFolderEvents } from './mediaFolderEvents';

class SpotCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly profiles: ProfileStore,
    mediaFolders: MediaFolderEvents,
  ) {
    this.subscriptions = [
      profiles.onDidChange(() => this.changed.fire()),
      // A media file added or removed changes the count on the lens (an edit redraws it unchanged).
      mediaFolders.onChange(() => this.changed.fire()),
    ];
  }

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    if (!mightBeSpotDocument(document)) return [];
    const core = await loadCore();
    if (!isSpotDocument(core, document)) return [];
    const profile = this.profiles.active();
    const title = profile ? vscode.l10n.t('$(cloud-upload) Import Spot to {0}', profileLabel(profile)) : vscode.l10n.t('$(cloud-upload) Import Spot');
    const top = new vscode.Range(0, 0, 0, 0);
    const tooltip = vscode.l10n.t('Validate this document and send it to the spot import endpoint');
    const lenses = [new vscode.CodeLens(top, { title, command: COMMAND.importSpot, arguments: [document.uri], tooltip })];
    lenses.push(
      new vscode.CodeLens(top, {
        title: vscode.l10n.t('$(globe) Show on Map'),
        command: COMMAND.showOnMap,
        arguments: [document.uri],
        tooltip: vscode.l10n.t('Show this spot on a map'),
      }),
    );
    const media = document.uri.scheme === 'file' ? core.mediaCount(await core.listSpotMedia(document.uri.fsPath)) : 0;
    if (media > 0) {
      lenses.push(
        new vscode.CodeLens(top, {
          title: media === 1 ? vscode.l10n.t('$(file-media) Import with 1 media') : vscode.l10n.t('$(file-media) Import with {0} media', media),
          command: COMMAND.importSpotWithMedia,
          arguments: [document.uri],
          tooltip:
            media === 1
              ? vscode.l10n.t('Import this spot and the 1 files of its media folder in one resumable step')
              : vscode.l10n.t('Import this spot and the {0} files of its media folder in one resumable step', media),
        }),
      );
    }
    return lenses;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }
}

export function registerSpotCodeLens(disposables: DisposableStore, profiles: ProfileStore, mediaFolders: MediaFolderEvents): void {
  const provider = new SpotCodeLensProvider(profiles, mediaFolders);
  disposables.push(
    provider,
    // The documents diagnostics check (platform/checkedDocuments.ts).
    vscode.languages.registerCodeLensProvider(spotDocumentSelector(), provider),
  );
}
