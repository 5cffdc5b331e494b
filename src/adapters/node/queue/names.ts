/** The queue's name when --queue-name is not given (a module of its own: the CLI's options need it without loading BullMQ). */
export const DEFAULT_QUEUE_NAME = 'educlaw-runs';
