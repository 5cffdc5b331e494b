import type { TerminationReason } from '../trace/types';

/**
 * Thrown by the session, the world or a learner agent to end the run with a reason. The run ends
 * with `run_end { reason, message }`; unlike other errors it adds no `error` event.
 */
export class RunStop extends Error {
  constructor(
    readonly reason: TerminationReason,
    message: string,
  ) {
    super(message);
    this.name = 'RunStop';
  }
}
