export { learningGain, responsiveness, leakage, independence, actionCounts, attemptsStep, STEP_PATTERNS, type Scored, type CurvePoint } from './metrics';
export { scoreTrace, JUDGED_AXES, type ScoreReport, type JudgedAxis } from './report';
export { formatAxisTable } from './table';
export { AXES, UNITS, axisById, axesMarkdown, withAxesSection, AXES_DOC_BEGIN, AXES_DOC_END, type Axis, type AxisSpec, type AnyAxis, type AxisId, type AxisKind, type AxisUnit, type Better, type UnitFormat } from './axes';
export { llmUsage, voiceFidelity, type LlmUsage, type RoleUsage, type VoiceFidelity } from './llm-usage';
export { tutorLabel } from './labels';
export { answerExtraction, type ExtractionDetail } from './answer-extraction';
export { learnerActivity, type LearnerActivity } from './activity';
export { calibration, dayPairs, type CalibrationReport } from './calibration';
