/** The learners: the port the session drives, the simulated learner and its parts, the real learner of a classroom study. Other areas import them from here (or from `src/core/index.ts`). */
export type { LearnerAgent, LearnerIo, LearnerMoment, LogoutWhy, ProbeResult, StudentAction, Submission } from './port';
export { RunStop } from './stop';
export { SimulatedLearner, STUDY_BUDGET, type SimulatedLearnerOptions } from './simulated';
export { RealLearner, RealActionError, ActionQueue, actionsFromTrace, quizItems, MAX_MESSAGE_CHARS, MAX_ANSWER_CHARS, type ActionSource } from './real';
export * from './kt/index';
export { HELP_TEMPLATES, TemplateVoice, type StudentVoice, type ReplyRequest } from './voice';
export { chooseSeed, unpackHistory, type PersonaSeedFile, type AbilityLevel } from './seeds';
export { LlmVoice, gradeReply, VOICE_PROMPT_VERSION, type VoiceGrade } from './llm-voice';
export { LlmStudent, gradeAttempt, AFTER_DISCLOSURE, attemptMessages, knowledgeInstruction, ATTEMPT_PROMPT_VERSION, ATTEMPT_CALLS, type AttemptContext, type AttemptGrading, type StudentAttemptRecord, type StudentAttemptWriter, type WrittenAttempt } from './student-attempts';
export { chatInstructionMatch, instructionTokens, CHAT_INSTRUCTION_VERSION, CHAT_MIN_TOKENS, CHAT_MIN_OVERLAP, CHAT_MIN_NOVEL } from './chat-instruction';
export { SCAFFOLD, SCAFFOLD_USES, LEARN, LEARN_CAP, LEARN_FADE } from './learner';
export { instructionSubstance, MethodVocabulary, INSTRUCTION_CHECK_VERSION } from './instruction';
export { MEMORY, SkillMemory } from './memory';
