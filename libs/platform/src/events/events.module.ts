import { Module } from '@nestjs/common';
import { keyedStore, loggedStore } from '../redis/store-providers';
import { PodEventPublisher } from './pod-event-publisher';
import { PodEventReader } from './pod-event-reader';

/** The pod event stream: its publisher and its reader. */
@Module({
  providers: [loggedStore(PodEventPublisher), keyedStore(PodEventReader)],
  exports: [PodEventPublisher, PodEventReader],
})
export class EventsModule {}
