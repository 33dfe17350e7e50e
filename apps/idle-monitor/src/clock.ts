import type { Provider } from '@nestjs/common';

/** The wall clock the idle monitor's services read; specs inject one they move. */
export const CLOCK = Symbol('Clock');
export type Clock = () => number;

export const CLOCK_PROVIDER: Provider = { provide: CLOCK, useValue: (() => Date.now()) satisfies Clock };
