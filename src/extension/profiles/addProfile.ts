// Add Profile: name, base URL, token URL (derived unless changed), API version, an optional
// topic id and an optional media URL template (the files host's address of a media file); then
// the client credentials. The new profile becomes the active one.
import * as vscode from 'vscode';
import { promptAndStoreCredentials } from './auth/promptCredentials';
import { checkServiceUrl } from './auth/urlPolicy';
import { API_VERSION_PATTERN, DEFAULT_API_VERSION } from '../../core/api/apiVersion';
import { required } from '../platform/cancellation';
import type { ExtensionServices } from '../platform/services';
import { MEDIA_TEMPLATE_EXAMPLE, mediaTemplatePrompt } from '../galleries/media/mediaTemplate';

const STEPS = 6;

export async function addProfile(services: ExtensionServices): Promise<void> {
  const { profiles, ui } = services;
  const taken = new Set(profiles.list().map((profile) => profile.name.toLowerCase()));
  const name = required(
    await ui.showInputBox({
      title: vscode.l10n.t('Add Spot Import profile ({0}/{1})', 1, STEPS),
      prompt: vscode.l10n.t('A name for this service account, for example "Production topic 37"'),
      validateInput: (value) =>
        !value.trim()
          ? vscode.l10n.t('Enter a name.')
          : taken.has(value.trim().toLowerCase())
            ? vscode.l10n.t('A profile with this name exists already.')
            : undefined,
    }),
  ).trim();
  const baseUrl = required(
    await ui.showInputBox({
      title: vscode.l10n.t('Add Spot Import profile ({0}/{1})', 2, STEPS),
      prompt: vscode.l10n.t('Base URL of the service (https; http only for localhost)'),
      placeHolder: 'https://api.example.org',
      validateInput: (value) => checkServiceUrl(value),
    }),
  ).trim();
  const derived = (await services.core()).defaultTokenUrl(baseUrl);
  const tokenUrl = required(
    await ui.showInputBox({
      title: vscode.l10n.t('Add Spot Import profile ({0}/{1})', 3, STEPS),
      prompt: vscode.l10n.t('Token URL. Keep the suggestion unless your operator gave you another one (for example …/oauth2/access_token)'),
      value: derived,
      validateInput: (value) => checkServiceUrl(value),
    }),
  ).trim();
  const apiVersion = required(
    await ui.showInputBox({
      title: vscode.l10n.t('Add Spot Import profile ({0}/{1})', 4, STEPS),
      prompt: vscode.l10n.t('API version used in request paths'),
      value: DEFAULT_API_VERSION,
      validateInput: (value) => (API_VERSION_PATTERN.test(value.trim()) ? undefined : vscode.l10n.t('Enter a version like v2.4.')),
    }),
  ).trim();
  const topic = required(
    await ui.showInputBox({
      title: vscode.l10n.t('Add Spot Import profile ({0}/{1})', 5, STEPS),
      prompt: vscode.l10n.t('Topic id this client serves (optional: leave empty)'),
      validateInput: (value) => (value.trim() === '' || /^\d+$/.test(value.trim()) ? undefined : vscode.l10n.t('Enter a whole number, or leave it empty.')),
    }),
  ).trim();
  const core = await services.core();
  const mediaUrlTemplate = required(
    await ui.showInputBox({
      title: vscode.l10n.t('Add Spot Import profile ({0}/{1})', 6, STEPS),
      prompt: mediaTemplatePrompt(),
      placeHolder: MEDIA_TEMPLATE_EXAMPLE,
      validateInput: (value) => core.checkMediaUrlTemplate(value),
    }),
  ).trim();

  const profile = await profiles.add({
    name,
    baseUrl,
    tokenUrl: tokenUrl === derived ? undefined : tokenUrl,
    apiVersion,
    topicId: topic ? Number(topic) : undefined,
    mediaUrlTemplate: mediaUrlTemplate || undefined,
  });
  await profiles.setActive(profile.id);
  services.log.info('auth', `profile "${profile.name}" added for ${profile.baseUrl}`);
  // Without credentials the profile is useless; a dismissed prompt leaves it "no credentials".
  await promptAndStoreCredentials(services, profile);
  void ui.showInformationMessage(vscode.l10n.t('Profile "{0}" is ready and active. Run Test Connection to check the credentials.', profile.name));
}
