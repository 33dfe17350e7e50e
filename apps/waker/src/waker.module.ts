import { Module, type DynamicModule } from '@nestjs/common';
import { HealthModule, PlatformModule, type AppStart } from '@podwarden/platform';
import { WakeWorker } from './wake-worker';

@Module({})
export class WakerModule {
  static forRoot(start: AppStart): DynamicModule {
    return {
      module: WakerModule,
      imports: [PlatformModule.forRoot(start), HealthModule],
      providers: [WakeWorker],
    };
  }
}
