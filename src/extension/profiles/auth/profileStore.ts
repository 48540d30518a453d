// Profiles (everything but the secrets) live in the extension's global state, not in settings:
// a folder opened from elsewhere can then never point the stored credentials at another host.
// The built-in sandbox profile is always listed; it cannot be removed. Every change of the stored
// profiles or the active id takes its turn (serialUpdate), so changes made at once lose none.
import * as vscode from 'vscode';
import { SANDBOX_PROFILE_ID, type CredentialStore, type Profile, type ProfileState, type ProfileStore } from '../../platform/domain';
import { loadCore } from '../../platform/lazyCore';
import { readStored, serialUpdate, writeStored } from '../../platform/serialUpdates';
import { checkServiceUrl, normalizeUrl } from './urlPolicy';
// Dependency-free files: the API version's default and shape, and the sandbox's files address,
// cost nothing at activation.
import { API_VERSION_PATTERN, DEFAULT_API_VERSION } from '../../../core/api/apiVersion';
import { sandboxMediaUrlTemplate } from '../../../sandbox/types';

const PROFILES_KEY = 'spotImport.profiles.v1';
const ACTIVE_KEY = 'spotImport.activeProfile.v1';

/** The built-in sandbox profile's name, in the display language ("Local": shown as "Local (sandbox)"). */
function sandboxProfileName(): string {
  return vscode.l10n.t({ message: 'Local', args: [], comment: ['the name of the built-in sandbox profile, shown as "Local (sandbox)"'] });
}

export class GlobalStateProfileStore implements ProfileStore, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  /** Profiles whose credentials the service refused since they were last set. */
  private readonly rejected = new Set<string>();
  private readonly subscription: vscode.Disposable;
  /** The stored profiles and the active id as this window last told its listeners (see refresh). */
  private seen: string;

  constructor(
    private readonly memento: vscode.Memento,
    private readonly credentials: CredentialStore,
    /** The running sandbox's address, or '' until it has started. */
    private readonly sandboxBaseUrl: () => string,
    /** The profile to use while the user has chosen none (npm start: the sandbox it started). */
    private readonly fallbackProfileId?: string,
  ) {
    this.seen = this.snapshot();
    this.subscription = credentials.onDidChange((profileId) => {
      this.rejected.delete(profileId);
      this.fireChanged();
    });
  }

  list(): Profile[] {
    return [this.sandboxProfile(), ...this.stored()];
  }

  get(id: string): Profile | undefined {
    return this.list().find((profile) => profile.id === id);
  }

  active(): Profile | undefined {
    const id = readStored<string>(this.memento, ACTIVE_KEY) ?? this.fallbackProfileId;
    return id === undefined ? undefined : this.get(id);
  }

  async state(profile: Profile): Promise<ProfileState> {
    if (this.rejected.has(profile.id)) return 'rejected';
    // The sandbox makes its own credentials on first use.
    if (profile.kind === 'sandbox') return 'ready';
    return (await this.credentials.get(profile.id)) ? 'ready' : 'noCredentials';
  }

  async add(input: Omit<Profile, 'id' | 'kind'>): Promise<Profile> {
    const name = input.name.trim();
    if (!name) throw new Error(vscode.l10n.t('A profile needs a name.'));
    for (const url of [input.baseUrl, input.tokenUrl].filter((value): value is string => !!value)) {
      const problem = checkServiceUrl(url);
      if (problem) throw new Error(`${url}: ${problem}`);
    }
    if (!API_VERSION_PATTERN.test(input.apiVersion)) throw new Error(vscode.l10n.t('"{0}" is not an API version like v2.4.', input.apiVersion));
    const baseUrl = normalizeUrl(input.baseUrl);
    const mediaUrlTemplate = await checkedTemplate(input.mediaUrlTemplate);
    // Only a token URL that differs from the derived one is stored, so it follows the base URL.
    const derived = input.tokenUrl ? (await loadCore()).defaultTokenUrl(baseUrl) : undefined;
    const tokenUrl = input.tokenUrl && normalizeUrl(input.tokenUrl) !== derived ? normalizeUrl(input.tokenUrl) : undefined;
    const profile: Profile = {
      id: `profile-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
      name,
      kind: 'remote',
      baseUrl,
      ...(tokenUrl ? { tokenUrl } : {}),
      apiVersion: input.apiVersion,
      ...(input.topicId !== undefined ? { topicId: input.topicId } : {}),
      ...(mediaUrlTemplate ? { mediaUrlTemplate } : {}),
    };
    // The name is checked in the same turn as the write: of two adds of one name, one is refused.
    return this.inTurn(async () => {
      if (this.list().some((known) => known.name.toLowerCase() === name.toLowerCase()))
        throw new Error(vscode.l10n.t('A profile named "{0}" exists already.', name));
      await writeStored(this.memento, PROFILES_KEY, [...this.stored(), profile]);
      this.fireChanged();
      return profile;
    });
  }

  async remove(id: string): Promise<void> {
    if (id === SANDBOX_PROFILE_ID) throw new Error(vscode.l10n.t('The built-in sandbox profile cannot be removed.'));
    await this.inTurn(async () => {
      await writeStored(
        this.memento,
        PROFILES_KEY,
        this.stored().filter((profile) => profile.id !== id),
      );
      if (readStored<string>(this.memento, ACTIVE_KEY) === id) await writeStored(this.memento, ACTIVE_KEY, undefined);
      this.rejected.delete(id);
      this.fireChanged();
    });
  }

  async setMediaUrlTemplate(id: string, template: string | undefined): Promise<void> {
    if (id === SANDBOX_PROFILE_ID) throw new Error(vscode.l10n.t('The Local (sandbox) profile serves its own media files; its address is set for you.'));
    const checked = await checkedTemplate(template);
    await this.inTurn(async () => {
      const stored = this.stored();
      const index = stored.findIndex((profile) => profile.id === id);
      if (index < 0) throw new Error(vscode.l10n.t('There is no profile with id {0}.', id));
      const profile: Profile = { ...stored[index] };
      delete profile.mediaUrlTemplate;
      if (checked) profile.mediaUrlTemplate = checked;
      stored[index] = profile;
      await writeStored(this.memento, PROFILES_KEY, stored);
      this.fireChanged();
    });
  }

  async setActive(id: string | undefined): Promise<void> {
    // In turn too: a profile being removed is either still there to choose, or its choice is refused.
    await this.inTurn(async () => {
      if (id !== undefined && !this.get(id)) throw new Error(vscode.l10n.t('There is no profile with id {0}.', id));
      await writeStored(this.memento, ACTIVE_KEY, id);
      this.fireChanged();
    });
  }

  markRejected(profileId: string, rejected: boolean): void {
    if (this.rejected.has(profileId) === rejected) return;
    if (rejected) this.rejected.add(profileId);
    else this.rejected.delete(profileId);
    this.fireChanged();
  }

  /**
   * Runs a change of the stored profiles or the active id after the changes before it (one queue
   * for both keys: a removal changes both, a choice reads the profiles). Reads go inside `change`.
   */
  private inTurn<T>(change: () => Promise<T>): Promise<T> {
    return serialUpdate(this.memento, PROFILES_KEY, change);
  }

  /**
   * Another window may have changed the stored profiles (global state is shared, without an event
   * here): listeners are told only when something did change, since they reload galleries.
   */
  refresh(): void {
    if (this.snapshot() !== this.seen) this.fireChanged();
  }

  private fireChanged(): void {
    this.seen = this.snapshot();
    this.changed.fire();
  }

  private snapshot(): string {
    return JSON.stringify([readStored(this.memento, ACTIVE_KEY) ?? null, readStored(this.memento, PROFILES_KEY) ?? null]);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }

  private sandboxProfile(): Profile {
    const baseUrl = this.sandboxBaseUrl();
    // The sandbox serves what it stores like a files host: previews work offline.
    const template = baseUrl ? { mediaUrlTemplate: sandboxMediaUrlTemplate(baseUrl) } : {};
    return { id: SANDBOX_PROFILE_ID, name: sandboxProfileName(), kind: 'sandbox', baseUrl, apiVersion: DEFAULT_API_VERSION, ...template };
  }

  /** Stored remote profiles; entries that do not fit (hand-edited, older versions) are skipped. */
  private stored(): Profile[] {
    const raw = readStored<unknown>(this.memento, PROFILES_KEY);
    if (!Array.isArray(raw)) return [];
    return raw
      .filter(
        (entry): entry is Profile =>
          !!entry &&
          typeof entry === 'object' &&
          typeof (entry as Profile).id === 'string' &&
          (entry as Profile).id !== SANDBOX_PROFILE_ID &&
          typeof (entry as Profile).name === 'string' &&
          typeof (entry as Profile).baseUrl === 'string' &&
          typeof (entry as Profile).apiVersion === 'string',
      )
      .map((entry) => ({ ...entry, kind: 'remote' as const }))
      .map(({ mediaUrlTemplate, ...entry }) => (typeof mediaUrlTemplate === 'string' && mediaUrlTemplate ? { ...entry, mediaUrlTemplate } : entry));
  }
}

/** The template trimmed, or undefined when empty; throws in words when it cannot work. */
async function checkedTemplate(template: string | undefined): Promise<string | undefined> {
  const text = template?.trim();
  if (!text) return undefined;
  const problem = (await loadCore()).checkMediaUrlTemplate(text);
  if (problem) throw new Error(vscode.l10n.t('Media URL template: {0}', problem));
  return text;
}
