import { redisScript } from '../../redis/redis-script';
import recordDiagnosisLua from './record-diagnosis.lua';

/** Keys: diagnoses list. Args: entry JSON, pod id, kind, last index kept. 1 new finding, 0 replaced. */
export const recordDiagnosis = redisScript<number>({
  name: 'record-diagnosis',
  numberOfKeys: 1,
  lua: recordDiagnosisLua,
});
