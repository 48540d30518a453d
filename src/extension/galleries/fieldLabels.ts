// The label of a gallery's field ("Photos" for fld_7_3), from the workspace's topic definitions,
// so gallery rows stay short and say what a person calls the field. The topic is read from the
// spot document the import came from (its topic_id), else the profile's topic; without one, or
// without a definition that labels the field, the row keeps the field name. Labels are found in
// the background: a row shows the field name until its label is known, then is drawn again.
import * as vscode from 'vscode';
import type * as Core from '../../core';
import { loadCore } from '../platform/lazyCore';
import type { Logger } from '../platform/services';
import type { KnownGallery, ProfileStore } from '../platform/domain';

/** What the labels need of the topic definitions (the TopicStore of src/extension/topics). */
export interface TopicCatalogs {
  readonly onDidChange: vscode.Event<void>;
  catalogFor(uri: vscode.Uri): Promise<Core.TopicCatalog>;
}

export interface FieldLabel {
  label: string;
  /** "topic 7 (Trail observations)", for the tooltip. */
  topic: string;
}

export class FieldLabels implements vscode.Disposable {
  /** null: looked up, none. */
  private readonly found = new Map<string, FieldLabel | null>();
  private readonly looking = new Set<string>();
  /** Counts changes of the definitions: a lookup that began before one is not kept. */
  private generation = 0;
  private readonly subscription: vscode.Disposable | undefined;

  constructor(
    private readonly topics: TopicCatalogs | undefined,
    private readonly profiles: ProfileStore,
    private readonly log: Logger,
    /** Rows whose label became known must be drawn again. */
    private readonly changed: () => void,
  ) {
    this.subscription = topics?.onDidChange(() => {
      this.generation++;
      const hadLabels = this.found.size > 0;
      this.found.clear();
      if (hadLabels) this.changed();
    });
  }

  /** The field's label when known now; otherwise undefined, and the lookup starts. */
  labelOf(profileId: string, known: KnownGallery): FieldLabel | undefined {
    const field = known.field;
    if (!field || !this.topics) return undefined;
    const key = JSON.stringify([profileId, known.spot?.documentUri ?? '', field]);
    const found = this.found.get(key);
    if (found !== undefined) return found ?? undefined;
    if (!this.looking.has(key)) {
      this.looking.add(key);
      const generation = this.generation;
      void this.lookUp(profileId, known.spot?.documentUri, field)
        .then(
          (label) => {
            // The definitions changed meanwhile: look again when the row is drawn again.
            if (generation !== this.generation) return this.changed();
            this.found.set(key, label);
            if (label) this.changed();
          },
          (error: unknown) => {
            if (generation === this.generation) this.found.set(key, null);
            this.log.info('galleries', `no label for ${field}: ${error instanceof Error ? error.message : String(error)}`);
          },
        )
        .finally(() => this.looking.delete(key));
    }
    return undefined;
  }

  dispose(): void {
    this.subscription?.dispose();
    this.found.clear();
  }

  private async lookUp(profileId: string, documentUri: string | undefined, field: string): Promise<FieldLabel | null> {
    const document = documentUri ? vscode.Uri.parse(documentUri, true) : undefined;
    const topicId = (document && (await topicOfDocument(document))) ?? this.profiles.get(profileId)?.topicId;
    const where = document ?? vscode.workspace.workspaceFolders?.[0]?.uri;
    if (topicId === undefined || !where || !this.topics) return null;
    const definition = (await this.topics.catalogFor(where)).get(topicId);
    const spec = definition && Object.hasOwn(definition.fields, field) ? definition.fields[field] : undefined;
    if (!definition || !spec?.label) return null;
    return { label: spec.label, topic: (await loadCore()).topicTitle(definition) };
  }
}

/** topic_id of a spot document (its editor's text when open, else the file); undefined when unreadable. */
async function topicOfDocument(uri: vscode.Uri): Promise<number | undefined> {
  try {
    const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
    const text = open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    const topicId = (JSON.parse(text) as { data?: { attributes?: { topic_id?: unknown } } } | null)?.data?.attributes?.topic_id;
    return typeof topicId === 'number' && Number.isInteger(topicId) ? topicId : undefined;
  } catch {
    return undefined;
  }
}
