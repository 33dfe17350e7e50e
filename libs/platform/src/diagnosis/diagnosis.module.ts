import { Module } from '@nestjs/common';
import { keyedStore } from '../redis/store-providers';
import { DiagnosisStore } from './diagnosis-store';

/** Each pod's boot diagnosis. */
@Module({
  providers: [keyedStore(DiagnosisStore)],
  exports: [DiagnosisStore],
})
export class DiagnosisModule {}
