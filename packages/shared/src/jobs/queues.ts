export const QUEUE_NAMES = ['scan', 'library', 'media', 'transcode', 'notify'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export function isQueueName(value: string): value is QueueName {
  return (QUEUE_NAMES as readonly string[]).includes(value);
}
