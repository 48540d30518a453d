// Validators for the CLI's machine formats. The JSON lines are checked against the schema that
// docs/cli-json.md publishes (read from the document itself, so the documentation and the output
// cannot drift apart). For SARIF, no npm package ships the SARIF 2.1.0 JSON Schema (checked:
// @microsoft/jest-sarif fetches it at run time, node-sarif-builder and the SARIF formatters ship
// none), so SARIF_SUBSET below transcribes the parts of sarif-schema-2.1.0.json that our logs use:
// each object's required members, the types and ranges of its members, and its complete list of
// allowed members (the schema sets additionalProperties false on them).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import { ROOT } from './cliProcess';

function ajv(): Ajv {
  const instance = new Ajv({ allErrors: true, strict: true, strictRequired: false });
  // RFC 3986 characters only, and well-formed percent escapes (what "uri-reference" needs here).
  instance.addFormat('uri-reference', /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/);
  instance.addFormat('uri', /^[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/);
  return instance;
}

let jsonLineValidator: ValidateFunction | undefined;

/** The schema block of docs/cli-json.md, compiled. */
export function validateJsonLine(record: unknown): string[] {
  if (!jsonLineValidator) {
    const doc = readFileSync(join(ROOT, 'docs', 'cli-json.md'), 'utf8');
    const block = /## The schema[\s\S]*?```json\n([\s\S]*?)\n```/.exec(doc);
    if (!block) throw new Error('docs/cli-json.md has no ```json schema block under "## The schema"');
    jsonLineValidator = ajv().compile(JSON.parse(block[1]));
  }
  return jsonLineValidator(record)
    ? []
    : (jsonLineValidator.errors ?? []).map((error) => `${error.instancePath} ${error.message} ${JSON.stringify(error.params)}`);
}

const message = {
  type: 'object',
  additionalProperties: false,
  properties: {
    text: { type: 'string' },
    markdown: { type: 'string' },
    id: { type: 'string' },
    arguments: { type: 'array', items: { type: 'string' } },
    properties: { $ref: '#/definitions/propertyBag' },
  },
  anyOf: [{ required: ['text'] }, { required: ['id'] }],
};

const SARIF_SUBSET = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  required: ['version', 'runs'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string', format: 'uri' },
    version: { enum: ['2.1.0'] },
    runs: { type: 'array', minItems: 1, items: { $ref: '#/definitions/run' } },
    inlineExternalProperties: { type: 'array' },
    properties: { $ref: '#/definitions/propertyBag' },
  },
  definitions: {
    propertyBag: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' }, uniqueItems: true } }, additionalProperties: true },
    message,
    multiformatMessageString: {
      type: 'object',
      required: ['text'],
      additionalProperties: false,
      properties: { text: { type: 'string' }, markdown: { type: 'string' }, properties: { $ref: '#/definitions/propertyBag' } },
    },
    run: {
      type: 'object',
      required: ['tool'],
      additionalProperties: false,
      properties: Object.fromEntries(
        [
          'conversion',
          'language',
          'versionControlProvenance',
          'artifacts',
          'logicalLocations',
          'graphs',
          'automationDetails',
          'runAggregates',
          'baselineGuid',
          'redactionTokens',
          'defaultEncoding',
          'defaultSourceLanguage',
          'newlineSequences',
          'externalPropertyFileReferences',
          'threadFlowLocations',
          'taxonomies',
          'addresses',
          'translations',
          'policies',
          'webRequests',
          'webResponses',
          'specialLocations',
        ]
          .map((name) => [name, {}] as [string, object])
          .concat([
            ['tool', { $ref: '#/definitions/tool' }],
            ['invocations', { type: 'array', items: { $ref: '#/definitions/invocation' } }],
            ['originalUriBaseIds', { type: 'object', additionalProperties: { $ref: '#/definitions/artifactLocation' } }],
            ['results', { type: 'array', items: { $ref: '#/definitions/result' } }],
            ['columnKind', { enum: ['utf16CodeUnits', 'unicodeCodePoints'] }],
            ['properties', { $ref: '#/definitions/propertyBag' }],
          ]),
      ),
    },
    tool: {
      type: 'object',
      required: ['driver'],
      additionalProperties: false,
      properties: {
        driver: { $ref: '#/definitions/toolComponent' },
        extensions: { type: 'array', items: { $ref: '#/definitions/toolComponent' } },
        properties: { $ref: '#/definitions/propertyBag' },
      },
    },
    toolComponent: {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: Object.fromEntries(
        [
          'guid',
          'organization',
          'product',
          'productSuite',
          'fullName',
          'semanticVersion',
          'dottedQuadFileVersion',
          'releaseDateUtc',
          'downloadUri',
          'informationUri',
          'globalMessageStrings',
          'notifications',
          'taxa',
          'locations',
          'language',
          'contents',
          'isComprehensive',
          'localizedDataSemanticVersion',
          'minimumRequiredLocalizedDataSemanticVersion',
          'associatedComponent',
          'translationMetadata',
          'supportedTaxonomies',
        ]
          .map((name) => [name, {}] as [string, object])
          .concat([
            ['name', { type: 'string' }],
            ['version', { type: 'string' }],
            ['shortDescription', { $ref: '#/definitions/multiformatMessageString' }],
            ['fullDescription', { $ref: '#/definitions/multiformatMessageString' }],
            ['rules', { type: 'array', uniqueItems: true, items: { $ref: '#/definitions/reportingDescriptor' } }],
            ['properties', { $ref: '#/definitions/propertyBag' }],
          ]),
      ),
    },
    reportingDescriptor: {
      type: 'object',
      required: ['id'],
      additionalProperties: false,
      properties: Object.fromEntries(
        ['deprecatedIds', 'guid', 'deprecatedGuids', 'name', 'deprecatedNames', 'messageStrings', 'helpUri', 'help', 'relationships']
          .map((name) => [name, {}] as [string, object])
          .concat([
            ['id', { type: 'string' }],
            ['shortDescription', { $ref: '#/definitions/multiformatMessageString' }],
            ['fullDescription', { $ref: '#/definitions/multiformatMessageString' }],
            ['defaultConfiguration', { $ref: '#/definitions/reportingConfiguration' }],
            ['properties', { $ref: '#/definitions/propertyBag' }],
          ]),
      ),
    },
    reportingConfiguration: {
      type: 'object',
      additionalProperties: false,
      properties: {
        enabled: { type: 'boolean' },
        level: { enum: ['none', 'note', 'warning', 'error'] },
        rank: { type: 'number', minimum: -1, maximum: 100 },
        parameters: { $ref: '#/definitions/propertyBag' },
        properties: { $ref: '#/definitions/propertyBag' },
      },
    },
    invocation: {
      type: 'object',
      required: ['executionSuccessful'],
      additionalProperties: false,
      properties: Object.fromEntries(
        [
          'arguments',
          'responseFiles',
          'startTimeUtc',
          'endTimeUtc',
          'ruleConfigurationOverrides',
          'notificationConfigurationOverrides',
          'toolExecutionNotifications',
          'toolConfigurationNotifications',
          'exitCodeDescription',
          'exitSignalName',
          'exitSignalNumber',
          'processStartFailureMessage',
          'machine',
          'account',
          'processId',
          'executableLocation',
          'workingDirectory',
          'environmentVariables',
          'stdin',
          'stdout',
          'stderr',
          'stdoutStderr',
        ]
          .map((name) => [name, {}] as [string, object])
          .concat([
            ['commandLine', { type: 'string' }],
            ['exitCode', { type: 'integer' }],
            ['executionSuccessful', { type: 'boolean' }],
            ['properties', { $ref: '#/definitions/propertyBag' }],
          ]),
      ),
    },
    result: {
      type: 'object',
      required: ['message'],
      additionalProperties: false,
      properties: Object.fromEntries(
        [
          'rule',
          'kind',
          'analysisTarget',
          'guid',
          'correlationGuid',
          'occurrenceCount',
          'partialFingerprints',
          'fingerprints',
          'stacks',
          'codeFlows',
          'graphs',
          'graphTraversals',
          'relatedLocations',
          'suppressions',
          'baselineState',
          'rank',
          'attachments',
          'hostedViewerUri',
          'workItemUris',
          'provenance',
          'fixes',
          'taxa',
          'webRequest',
          'webResponse',
        ]
          .map((name) => [name, {}] as [string, object])
          .concat([
            ['ruleId', { type: 'string' }],
            ['ruleIndex', { type: 'integer', minimum: -1 }],
            ['level', { enum: ['none', 'note', 'warning', 'error'] }],
            ['message', { $ref: '#/definitions/message' }],
            ['locations', { type: 'array', items: { $ref: '#/definitions/location' } }],
            ['properties', { $ref: '#/definitions/propertyBag' }],
          ]),
      ),
    },
    location: {
      type: 'object',
      additionalProperties: false,
      properties: {
        id: { type: 'integer', minimum: -1 },
        physicalLocation: { $ref: '#/definitions/physicalLocation' },
        logicalLocations: { type: 'array' },
        message: { $ref: '#/definitions/message' },
        annotations: { type: 'array' },
        relationships: { type: 'array' },
        properties: { $ref: '#/definitions/propertyBag' },
      },
    },
    physicalLocation: {
      type: 'object',
      additionalProperties: false,
      properties: {
        address: { type: 'object' },
        artifactLocation: { $ref: '#/definitions/artifactLocation' },
        region: { $ref: '#/definitions/region' },
        contextRegion: { $ref: '#/definitions/region' },
        properties: { $ref: '#/definitions/propertyBag' },
      },
      anyOf: [{ required: ['address'] }, { required: ['artifactLocation'] }],
    },
    artifactLocation: {
      type: 'object',
      additionalProperties: false,
      properties: {
        uri: { type: 'string', format: 'uri-reference' },
        uriBaseId: { type: 'string' },
        index: { type: 'integer', minimum: -1 },
        description: { $ref: '#/definitions/message' },
        properties: { $ref: '#/definitions/propertyBag' },
      },
    },
    region: {
      type: 'object',
      additionalProperties: false,
      properties: {
        startLine: { type: 'integer', minimum: 1 },
        startColumn: { type: 'integer', minimum: 1 },
        endLine: { type: 'integer', minimum: 1 },
        endColumn: { type: 'integer', minimum: 1 },
        charOffset: { type: 'integer', minimum: -1 },
        charLength: { type: 'integer', minimum: 0 },
        byteOffset: { type: 'integer', minimum: -1 },
        byteLength: { type: 'integer', minimum: 0 },
        snippet: { type: 'object' },
        message: { $ref: '#/definitions/message' },
        sourceLanguage: { type: 'string' },
        properties: { $ref: '#/definitions/propertyBag' },
      },
    },
  },
};

let sarifValidator: ValidateFunction | undefined;

export function validateSarif(log: unknown): string[] {
  sarifValidator ??= ajv().compile(SARIF_SUBSET);
  return sarifValidator(log) ? [] : (sarifValidator.errors ?? []).map((error) => `${error.instancePath} ${error.message} ${JSON.stringify(error.params)}`);
}
