import { Logger } from '@nestjs/common';

async function bootstrap(): Promise<void> {
  new Logger('waker').log('not wired yet');
}

void bootstrap();
