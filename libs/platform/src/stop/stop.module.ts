import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { IdleModule } from '../idle/idle.module';
import { RecordsModule } from '../records/records.module';
import { keyedStore } from '../redis/store-providers';
import { WakeModule } from '../wake/wake.module';
import { PendingStopStore } from './pending-stop-store';
import { StopService } from './stop-service';

/**
 * The one stop service and the stops it follows until a tick sees the pod down. It records through the
 * action log and billable intents, stops the volume's wakes, resets the idle state and publishes events.
 */
@Module({
  imports: [RecordsModule, WakeModule, IdleModule, EventsModule],
  providers: [StopService, keyedStore(PendingStopStore)],
  exports: [StopService, PendingStopStore],
})
export class StopModule {}
