import { z } from 'zod';
import type { OpenReservation } from './budget-ledger';

/**
 * An open reservation as the ledger stores it. No field falls back: a reservation whose amount, price or
 * time cannot be read cannot be priced, so the read throws and the reservation stays open (it keeps
 * counting against the budget; the reserve script refuses wakes over it too).
 */
export const openReservationSchema: z.ZodType<OpenReservation> = z.object({
  micros: z.number(),
  pricePerHour: z.number(),
  at: z.number(),
  attemptId: z.string().optional(),
});
