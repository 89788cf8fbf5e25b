import { describe, expect, it } from 'vitest';
import { BytesAnswer } from './answer/answer.js';
import { checkResponse } from './pipeline.js';

const json = (status: number, body: unknown) =>
  new BytesAnswer(status, new TextEncoder().encode(JSON.stringify(body)), {
    'Content-Type': 'application/json',
  });
const ok = (data: unknown) => ({ error_code: 0, error_message: '', succeed: true, data });

describe("the mock's own response check judges with the judge's exchange rules", () => {
  it('turns a list page whose total is not its length (the schema cannot say it) into a loud 500', async () => {
    const reported: string[] = [];
    const answer = await checkResponse(
      'listVoices',
      json(200, ok({ list: [], has_more: false, total: 5, remainingFreeCloneCount: 3 })),
      (v) => reported.push(v),
    );
    expect(answer.status).toBe(500);
    expect(reported).toEqual([
      expect.stringMatching(/list\.page-size \(§4\.3, §8\): total is 5 for a page of 0 voices/),
    ]);
  });

  it('leaves a correct answer as it is, and holds the mock to its own choice where the spec is open', async () => {
    const page = json(200, ok({ list: [], has_more: false, total: 0, remainingFreeCloneCount: 3 }));
    expect(await checkResponse('listVoices', page, () => {})).toBe(page);
    const refusal = json(400, { error_code: 20016, error_message: 'too short', succeed: false, data: null });
    expect(await checkResponse('saveVoice', refusal, () => {})).toBe(refusal);
    // Another deployment may answer 422 (the judge tolerates it); the kit's mock documents 400.
    const other = json(422, { error_code: 20016, error_message: 'too short', succeed: false, data: null });
    expect((await checkResponse('saveVoice', other, () => {})).status).toBe(500);
  });

  it('turns an upload refusal that breaks a §7.1 pair into a loud 500', async () => {
    const reported: string[] = [];
    const answer = await checkResponse(
      'uploadFile',
      json(413, { error_code: 10001, error_message: 'big', succeed: false, data: null }),
      (v) => reported.push(v),
    );
    expect(answer.status).toBe(500);
    expect(reported[0]).toMatch(/error-code\.for-status/);
  });
});
