import { POD_NAME_MAX_LENGTH, REQUESTED_BY_MAX_LENGTH, validateWakeJobData } from './wake-job-data.dto';

describe(validateWakeJobData.name, () => {
  it.each<[string, unknown, string]>([
    ['null', null, 'expected an object { podName, requestedBy? }'],
    ['an array', [{ podName: 'qwen' }], 'expected an object { podName, requestedBy? }'],
    ['a string', 'qwen', 'expected an object { podName, requestedBy? }'],
    ['no podName', { requestedBy: 'chat' }, 'podName must be a non-empty string'],
    ['a number podName', { podName: 42 }, 'podName must be a non-empty string'],
    ['a blank podName', { podName: ' \t ' }, 'podName must be a non-empty string'],
    [
      'a podName past the limit',
      { podName: 'q'.repeat(POD_NAME_MAX_LENGTH + 1) },
      `podName is longer than ${POD_NAME_MAX_LENGTH} characters`,
    ],
    [
      'a number requestedBy',
      { podName: 'qwen', requestedBy: 7 },
      'requestedBy must be a string when present',
    ],
    [
      'a null requestedBy',
      { podName: 'qwen', requestedBy: null },
      'requestedBy must be a string when present',
    ],
    [
      'a requestedBy past the limit',
      { podName: 'qwen', requestedBy: 'x'.repeat(REQUESTED_BY_MAX_LENGTH + 1) },
      `requestedBy is longer than ${REQUESTED_BY_MAX_LENGTH} characters`,
    ],
    ['an unknown field', { podName: 'qwen', priority: 'high' }, 'property priority should not exist'],
    [
      'a __proto__ key',
      JSON.parse('{"podName":"qwen","__proto__":{"x":1}}'),
      'property __proto__ should not exist',
    ],
    ['a constructor key', { podName: 'qwen', constructor: [1] }, 'property constructor should not exist'],
    [
      'a megabyte key',
      { podName: 'qwen', ['k'.repeat(1024 * 1024)]: 1 },
      `property ${'k'.repeat(40)} should not exist`,
    ],
    [
      'two bad fields (each named once)',
      { podName: 7, requestedBy: 7 },
      'podName must be a non-empty string; requestedBy must be a string when present',
    ],
  ])('refuses %s, naming the rule', async (_what, data, reason) => {
    expect(await validateWakeJobData(data)).toEqual({ ok: false, reason: `invalid wake payload: ${reason}` });
  });

  it.each<[string, unknown, object]>([
    ['a bare pod name', { podName: 'qwen' }, { podName: 'qwen' }],
    ['a padded pod name, trimmed', { podName: '  QWEN ' }, { podName: 'QWEN' }],
    ['a requester', { podName: 'qwen', requestedBy: 'chat' }, { podName: 'qwen', requestedBy: 'chat' }],
    [
      'both fields at their limits',
      { podName: 'q'.repeat(POD_NAME_MAX_LENGTH), requestedBy: 'x'.repeat(REQUESTED_BY_MAX_LENGTH) },
      { podName: 'q'.repeat(POD_NAME_MAX_LENGTH), requestedBy: 'x'.repeat(REQUESTED_BY_MAX_LENGTH) },
    ],
    [
      'an empty requester (present, a string)',
      { podName: 'qwen', requestedBy: '' },
      { podName: 'qwen', requestedBy: '' },
    ],
  ])('accepts %s as plain data with only the two fields', async (_what, data, expected) => {
    const check = await validateWakeJobData(data);

    expect(check).toEqual({ ok: true, data: expected });
    expect(check.ok && Object.getPrototypeOf(check.data)).toBe(Object.prototype);
  });
});
