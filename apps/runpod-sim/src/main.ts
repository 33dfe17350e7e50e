import { Logger } from '@nestjs/common';

async function bootstrap(): Promise<void> {
  new Logger('runpod-sim').log('not wired yet');
}

void bootstrap();
