// contract.ts and voice-service.yaml declare the same contract twice (as data and as OpenAPI): these
// tests make any drift between them fail.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { collectOpenQuestions } from '../scripts/open-questions.mjs';
import {
  apiKeyHeader,
  audioMediaTypes,
  documentedErrorCodes,
  type ErrorName,
  errors,
  type LimitName,
  limits,
  operationIds,
  pcmHeaders,
  synthesis,
  upload,
  voiceId,
} from './contract.js';
import { openapiDocument } from './generated/spec.js';
import type { UploadForm } from './generated/voice-service.js';
import { deref, document, jsonExamples, type Node, operation, operations } from './test/load-document.js';

const schemas = document.components.schemas;
const questionIds = new Set(collectOpenQuestions(document).questions.map((q) => q.id));

/** Error responses of an operation by status: `responses`, plus the signed-URL answers listed beside them. */
function errorResponses(operationId: string | undefined): Record<string, Node> {
  if (operationId === undefined) return document['x-router-responses'];
  const op = operation(operationId);
  const documented = Object.entries<Node>(op.responses).filter(([status]) => !status.startsWith('2'));
  return { ...Object.fromEntries(documented), ...(op['x-voice-url-responses'] ?? {}) };
}

/** Every error example of the document: where, status, example name, value. */
function allErrorExamples(): { where: string | undefined; status: string; name: string; value: Node }[] {
  const wheres = [undefined, ...operations().map((entry) => entry.operationId)];
  return wheres.flatMap((where) =>
    Object.entries(errorResponses(where)).flatMap(([status, response]) =>
      Object.entries<Node>(jsonExamples(response)).map(([name, value]) => ({ where, status, name, value })),
    ),
  );
}

describe('operations and security', () => {
  it('generated/spec.ts is the YAML as data (run `npm run generate` after editing the YAML)', () => {
    expect(openapiDocument).toEqual(document);
  });

  it('declares exactly the six operations of contract.operationIds, all under /v1', () => {
    const ids = operations().map((entry) => entry.operationId);
    expect([...ids].sort()).toEqual([...operationIds].sort());
    for (const entry of operations()) expect(entry.path).toMatch(/^\/v1\//);
  });

  it('applies the X-API-Key scheme to every operation', () => {
    const [name] = Object.keys(document.security[0]);
    const scheme = document.components.securitySchemes[name as string];
    expect(scheme).toMatchObject({ type: 'apiKey', in: 'header', name: apiKeyHeader });
    for (const { op } of operations()) expect(op.security ?? document.security).toEqual(document.security);
  });
});

describe('limits', () => {
  it('x-limits has exactly the limits of contract.ts, with the same value, unit and section', () => {
    const xLimits = document['x-limits'];
    expect(Object.keys(xLimits).sort()).toEqual(Object.keys(limits).sort());
    for (const [name, limit] of Object.entries(limits)) {
      expect(xLimits[name], name).toEqual({ value: limit.value, unit: limit.unit, section: limit.section });
    }
  });

  const requestVoiceId = schemas.SaveVoiceRequest.properties.voice_id;
  const refAudio = schemas.SaveVoiceRequest.properties.ref_audio;
  const pageSize = deref(document.components.parameters.PageSize).schema;
  const keywords: [LimitName, string, unknown][] = [
    ['uploadMaxBytes', 'UploadForm.file x-max-bytes', schemas.UploadForm.properties.file['x-max-bytes']],
    ['uploadMaxBytes', 'UploadedFile.size maximum', schemas.UploadedFile.properties.size.maximum],
    ['referenceMaxBytes', 'ref_audio x-max-bytes', refAudio['x-max-bytes']],
    ['referenceMinSeconds', 'ref_audio x-min-duration-seconds', refAudio['x-min-duration-seconds']],
    ['referenceMaxSeconds', 'ref_audio x-max-duration-seconds', refAudio['x-max-duration-seconds']],
    ['voiceIdMinLength', 'voice_id x-normalized-min-length', requestVoiceId['x-normalized-min-length']],
    ['voiceIdMaxLength', 'voice_id x-normalized-max-length', requestVoiceId['x-normalized-max-length']],
    ['pageSizeMin', 'page_size minimum', pageSize.minimum],
    ['pageSizeMax', 'page_size maximum', pageSize.maximum],
    ['pageSizeMax', 'VoiceList.list maxItems', schemas.VoiceList.properties.list.maxItems],
    ['pageSizeMax', 'VoiceList.total maximum', schemas.VoiceList.properties.total.maximum],
    ['pageSizeDefault', 'page_size default', pageSize.default],
  ];
  it.each(keywords)('%s equals %s', (name, _where, actual) => {
    expect(actual).toBe(limits[name].value);
  });

  it('states the upload rate in the upload description', () => {
    expect(operation('uploadFile').description.replace(/\s+/g, ' ')).toContain(
      `${limits.uploadRatePerHour.value} uploads per user per hour`,
    );
    expect(limits.uploadRateWindowSeconds.value).toBe(3600);
  });

  it('states the voice-id rule as data and as the normalized pattern', () => {
    expect(requestVoiceId['x-normalized-pattern']).toBe(voiceId.pattern);
    expect(voiceId.pattern).toContain(`{${limits.voiceIdMinLength.value},${limits.voiceIdMaxLength.value}}`);
    expect(requestVoiceId.type).toBe('string');
    expect(requestVoiceId.maxLength).toBeUndefined();
  });
});

describe('error catalogue', () => {
  const cases = Object.entries(errors).flatMap(([name, entry]) =>
    (entry.operations.length > 0 ? entry.operations : [undefined]).map(
      (op) => [name as ErrorName, op ?? '(any path)', entry.status] as const,
    ),
  );
  it.each(cases)('%s is documented for %s at HTTP %i', (name, op, status) => {
    const entry = errors[name];
    const response = errorResponses(op === '(any path)' ? undefined : op)[String(status)];
    expect(response, `no ${status} response`).toBeDefined();
    expect(jsonExamples(response)[name]).toEqual({
      error_code: entry.code,
      error_message: entry.message,
      succeed: false,
      data: null,
    });
  });

  it.each(allErrorExamples().map((e) => [e.where ?? '(any path)', e.status, e.name, e.value] as const))(
    'YAML example %s %s %s is a catalogue entry with that status and code',
    (where, status, name, value) => {
      const entry = (errors as Record<string, (typeof errors)[ErrorName]>)[name];
      expect(entry, `no catalogue entry named ${name}`).toBeDefined();
      expect([entry?.status, entry?.code]).toEqual([Number(status), value.error_code]);
      const listed: readonly string[] = entry?.operations ?? [];
      expect(where === '(any path)' ? listed.length === 0 : listed.includes(where)).toBe(true);
    },
  );

  it('every documented error_code (§7) is in the catalogue and in the YAML, and no other code is', () => {
    const documented = Object.keys(documentedErrorCodes).map(Number).sort();
    const catalogue = [...new Set(Object.values(errors).map((e) => e.code))].sort();
    const yaml = [...new Set(allErrorExamples().map((e) => e.value.error_code as number))].sort();
    expect(catalogue).toEqual(documented);
    expect(yaml).toEqual(documented);
  });

  it('every kit-chosen entry names an x-open-question that the YAML defines', () => {
    for (const [name, entry] of Object.entries(errors)) {
      const id = 'openQuestion' in entry ? entry.openQuestion : undefined;
      if (entry.source === 'kit') expect(id, name).toBeTypeOf('string');
      if (id !== undefined) expect(questionIds.has(id), `${name}: ${id}`).toBe(true);
    }
  });
});

describe('synthesis and upload rules', () => {
  const synthesisOps = ['synthesizeSpeech', 'streamSpeech'];
  it.each(synthesisOps)('%s answers 200 with the audio media types and the PCM headers', (id) => {
    const ok = deref(operation(id).responses['200']);
    expect(Object.keys(ok.content).sort()).toEqual(Object.values(audioMediaTypes).sort());
    expect(Object.keys(ok.headers).sort()).toEqual(Object.values(pcmHeaders).sort());
    for (const header of Object.values<Node>(ok.headers)) expect(deref(header)['x-kit-choice']).toBe(true);
  });

  it('the synthesis body requires generate_text, has no text alias, and rejects a negative speed', () => {
    const body = schemas.SynthesisRequest;
    expect(body.required).toEqual([synthesis.textField]);
    expect(body.properties[synthesis.textAliasField]).toBeUndefined();
    expect(body.properties.speed).toMatchObject({ type: 'number', minimum: synthesis.speedMinimum });
  });

  it('the upload form lists the scenes and the allowed and refused extensions of contract.upload', () => {
    const form = schemas.UploadForm;
    // A copy: sorting the document's own array would change it for the tests that run after this one.
    expect([...form.required].sort()).toEqual([upload.fileField, upload.sceneField].sort());
    expect(form.properties[upload.sceneField].enum).toEqual(upload.scenes);
    expect(form.properties[upload.fileField]['x-allowed-extensions']).toEqual(upload.allowedExtensions);
    expect(form.properties[upload.fileField]['x-refused-extensions']).toEqual(upload.refusedExtensions);
  });

  it('the upload form types its file as raw bytes: a Blob in the generated types', () => {
    expect(schemas.UploadForm.properties[upload.fileField]).toMatchObject({
      type: 'string',
      format: 'binary',
      contentMediaType: 'application/octet-stream',
    });
    expect(schemas.UploadForm.properties[upload.fileField].contentEncoding).toBeUndefined();
    expectTypeOf<UploadForm['file']>().toEqualTypeOf<Blob>();
  });
});

describe('spec sections (x-spec-section)', () => {
  it.each(operations().map((entry) => [entry.operationId, entry.op] as const))(
    '%s carries x-spec-section, the section its description starts with',
    (_id, op) => {
      expect(op['x-spec-section']).toMatch(/^§4\.\d$/);
      expect(op.description.startsWith(`${op['x-spec-section']}. `)).toBe(true);
    },
  );

  /** Every named example of an error answer, as the example object (summary, x-spec-section, value). */
  const exampleNodes = [undefined, ...operations().map((entry) => entry.operationId)].flatMap((where) =>
    Object.entries(errorResponses(where)).flatMap(([status, response]) =>
      Object.entries<Node>(deref(response)?.content?.['application/json']?.examples ?? {}).map(
        ([name, example]) => [where ?? '(any path)', status, name, deref(example)] as const,
      ),
    ),
  );
  it.each(exampleNodes)(
    'error example %s %s %s carries the section of its catalogue entry',
    (_where, _status, name, example) => {
      const entry = (errors as Record<string, (typeof errors)[ErrorName]>)[name];
      expect(example['x-spec-section']).toBe(entry?.section);
    },
  );
});
