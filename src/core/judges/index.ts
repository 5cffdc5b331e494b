export { RUBRICS, RUBRIC_IDS, replyFormat, rubricPrompt, judgeIntro, dayValue, type Rubric, type RubricId, type ScaleRubric, type BinaryRubric, type RubricItem } from '../rubrics/index';
export { dayTranscript, eventsByDay, type DayLog } from './transcript';
export { judgeTrace, withVerdicts, sampleDays, PANEL_DEFAULTS, type JudgeSpec, type PanelOptions, type PanelResult, type PanelProgress } from './panel';
export { judgedAxes, verdictValue, type JudgedAxisDetail, type JudgedSummary } from './aggregate';
export { agreementReport, formatAgreement, spearman, type AgreementReport, type JudgedRun } from './agreement';
