export { ENGINE_VERSION } from './version';
export { RunRecordSchema, VoiceSpecSchema, runRecord, runIdFor, runIdOf, effectiveScenario, recordFromTrace, type RunRecord, type RunRecordInput, type VoiceSpec } from './record';
export { Session, type RunResult, type SessionOptions } from './session';
export { Turn, type TurnStatus, type TurnOutcome } from './turn';
export { World, type Delivery } from './world';
export { RunStop } from './stop';
export { executeRun, openRun, driveTutor, tutorEntryIn, type RunEnv, type RunOptions, type OpenRun, type LlmRef } from './execute';
export { resumePoint, ReplayLlm, replayRecordedTurns } from './replay';
export type { LearnerAgent, LearnerIo, LearnerMoment, LogoutWhy, ProbeResult, Submission } from './learner-port';
