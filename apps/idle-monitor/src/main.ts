import { Logger } from '@nestjs/common';

async function bootstrap(): Promise<void> {
  new Logger('idle-monitor').log('not wired yet');
}

void bootstrap();
