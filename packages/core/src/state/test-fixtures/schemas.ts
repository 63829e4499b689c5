import { z } from 'zod';

export const idsSchema = z.object({ ids: z.array(z.string()) });
export type Ids = z.infer<typeof idsSchema>;

/** `payload` is sized from `counter`, so a torn or mixed write cannot validate. */
export const counterSchema = z
  .object({ counter: z.number().int().nonnegative(), writer: z.number().int(), payload: z.string() })
  .refine((v) => v.payload === payloadFor(v.counter), { message: 'payload does not match counter' });
export type Counter = z.infer<typeof counterSchema>;

export function payloadFor(counter: number): string {
  return `${counter}:`.repeat(1000 + (counter % 13) * 997);
}
