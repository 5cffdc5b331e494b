/** Analyses and the results report of a set of runs (docs/analyses.md). */
export { DIGEST_VERSION, FIELD_SUFFIX, SHARED_STUDENT_ENGINES, studentKey, studentOf, isFieldRun, digestRun, digestAll, isDigest, actionsByDay, helpNeglect, probeCeiling, type AnalysisRun, type AnalysisInput, type RunDigest, type ActionCounts } from './digest';
export { stat, clusteredStat, averageRanks, spearmanRho, kendallTauB, pairCounts, passHatK, MIN_CORRELATION_N } from './stats';
export { axesByTutor, axesByTutorVoice, axisCell, type TutorAxes, type TutorVoiceAxes, type AxisCell, type ReasonCount } from './axes-by-tutor';
export { solveRateCurves, runReference, referenceAt, referenceShare, plateauDay, PLATEAU_SHARE, NO_REFERENCE, type TutorCurve, type CurvePointStat } from './curves';
export { axisScatter, type ScatterData, type ScatterPoint } from './scatter';
export { modelHarness, type ModelHarness, type RankTable, type RankPair } from './model-harness';
export { failureModes, failureVerdicts, FAILURE_MODES, NO_CURRICULUM_GAGNE, ALL_RUNS, type FailureModeId, type FailureRow, type ModeRate, type ModeVerdict } from './failure-modes';
export { parsePassRule, passOf, passAtK, voicesDiffer, DEFAULT_PASS_RULE, VALUE_ADDED_THRESHOLD, MAX_K, PASS_KS, type PassRule, type PassClause, type PassKResult, type TutorPassK, type PassTask, type TrialsOver } from './pass-k';
export { actionFrequencies, type TutorActions, type KindStat } from './actions';
export { axisCorrelations, type AxisPair } from './correlations';
export { analyseBenchmark, buildBenchmarkReport, type BenchmarkAnalyses, type BenchmarkReport, type ReportOptions, type Overview } from './report';
export { reportMarkdown, reportHtml, reportCsvFiles, allPlots, allTables, escapeHtml, type RenderOptions } from './render';
export { toCsv, statText, type ReportTable, type ReportPlot, type ReportSection, type CsvCell } from './table';
export { PALETTE, type VlSpec } from './plots';
export { mannWhitneyU, fieldVsSimulated, fieldComparisons, type MannWhitney, type Distribution, type FieldAxisRow, type FieldComparison } from './field';
export { attachControls, attachReferences, valueAddedByTutor, pairKey, type TutorValueAdded } from './value-added';
export { headToHead, headToHeads, H2H_AXES, type HeadToHead, type HeadToHeadResult, type AxisRanking } from './head-to-head';
export { YARDSTICK_TUTORS } from './report';
