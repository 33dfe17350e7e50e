import { Module, type DynamicModule } from '@nestjs/common';
import { HealthModule, PlatformModule, type AppStart } from '@podwarden/platform';
import { IdleTickWorker } from './idle-tick-worker';

@Module({})
export class IdleMonitorModule {
  static forRoot(start: AppStart): DynamicModule {
    return {
      module: IdleMonitorModule,
      imports: [PlatformModule.forRoot(start), HealthModule],
      providers: [IdleTickWorker],
    };
  }
}
