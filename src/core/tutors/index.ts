export type { Tutor, TutorContext, TutorEntry, ToolBox, Wake, TutorFactoryOptions } from './types';
export { answerGiver, withholder, planner } from './reference';
