// package.json's settings are literals (VS Code's Settings editor reads them without running any
// code), so each one whose value has a home in the core is held to it here: a change there that
// package.json does not follow fails this test instead of leaving the two to drift. The media
// settings' defaults are checked in mediaSettings.test.ts.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY, MIN_CONCURRENCY } from '../../src/core/import/concurrency';
import {
  DEFAULT_ASSUMED_TOKEN_LIFETIME_SECONDS,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_REQUEST_DEADLINE_MS,
  DEFAULT_TOKEN_DEADLINE_MS,
} from '../../src/core/api/requestDefaults';
import { DEFAULT_RETRY_POLICY } from '../../src/core/api/retryPolicy';
import { DEFAULT_FILE_FIELD_NAME } from '../../src/core/api/fileField';

interface SettingSchema {
  default?: unknown;
  minimum?: number;
  maximum?: number;
}

const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, SettingSchema | undefined> } };
  capabilities?: { untrustedWorkspaces?: { supported?: unknown; restrictedConfigurations?: string[] } };
};

function setting(key: string): SettingSchema {
  const schema = manifest.contributes.configuration.properties[`spotImport.${key}`];
  assert.ok(schema, `package.json contributes the setting spotImport.${key}`);
  return schema;
}

describe('settings in package.json against their homes in the core', () => {
  it("spotImport.bulkImport.concurrency: the core's bounds and default (src/core/import/concurrency.ts)", () => {
    const { minimum, maximum, default: value } = setting('bulkImport.concurrency');
    assert.deepEqual({ minimum, maximum, default: value }, { minimum: MIN_CONCURRENCY, maximum: MAX_CONCURRENCY, default: DEFAULT_CONCURRENCY });
  });

  it("time limits, retries and the assumed token lifetime: the core's defaults (src/core/api/requestDefaults.ts), in seconds", () => {
    const defaults = Object.fromEntries(
      ['requestTimeoutSeconds', 'tokenTimeoutSeconds', 'requestDeadlineSeconds', 'maxRetries', 'assumedTokenLifetimeSeconds'].map((key) => [
        key,
        setting(key).default,
      ]),
    );
    assert.deepEqual(defaults, {
      requestTimeoutSeconds: DEFAULT_IDLE_TIMEOUT_MS / 1000,
      tokenTimeoutSeconds: DEFAULT_TOKEN_DEADLINE_MS / 1000,
      requestDeadlineSeconds: DEFAULT_REQUEST_DEADLINE_MS / 1000,
      maxRetries: DEFAULT_MAX_RETRIES,
      assumedTokenLifetimeSeconds: DEFAULT_ASSUMED_TOKEN_LIFETIME_SECONDS,
    });
    assert.equal(DEFAULT_RETRY_POLICY.maxRetries, DEFAULT_MAX_RETRIES);
  });

  it("each of those defaults lies within the setting's own minimum and maximum", () => {
    for (const key of [
      'bulkImport.concurrency',
      'requestTimeoutSeconds',
      'tokenTimeoutSeconds',
      'requestDeadlineSeconds',
      'maxRetries',
      'assumedTokenLifetimeSeconds',
    ]) {
      const { minimum, maximum, default: value } = setting(key);
      assert.ok(
        typeof value === 'number' && minimum !== undefined && maximum !== undefined && minimum <= value && value <= maximum,
        `${key}: ${minimum} <= ${String(value)} <= ${maximum}`,
      );
    }
  });

  it("spotImport.fileFieldName: the core's DEFAULT_FILE_FIELD_NAME", () => {
    assert.equal(setting('fileFieldName').default, DEFAULT_FILE_FIELD_NAME);
  });

  it('Restricted Mode: each setting a folder may not set there is one of ours, and those that change what is sent or where the map asks are among them', () => {
    const restricted = manifest.capabilities?.untrustedWorkspaces?.restrictedConfigurations ?? [];
    assert.equal(manifest.capabilities?.untrustedWorkspaces?.supported, 'limited');
    for (const key of restricted) assert.ok(manifest.contributes.configuration.properties[key], `${key} is contributed`);
    // map.tiles: an untrusted folder would learn the person's address and where they look on the map.
    for (const key of ['fileFieldName', 'bulkImport.concurrency', 'media.keepInProgress', 'media.setOrder', 'media.acceptedTypes', 'map.tiles']) {
      assert.ok(restricted.includes(`spotImport.${key}`), `spotImport.${key} is restricted`);
    }
  });
});
