import { Logger } from '@nestjs/common';

async function bootstrap(): Promise<void> {
  new Logger('gateway').log('not wired yet');
}

void bootstrap();
