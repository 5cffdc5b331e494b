export { LmsState, CONTENT_KINDS, type Assignment, type AssignmentStatus, type GradebookEntry, type LmsMessage, type ContentKind } from './state';
export { TOOLS, TOOL_NAMES, toolByName, toolSpecs, runTool, actionKindOf, ToolError, type ToolDef, type ToolContext, type ToolEffects, type ToolName } from './tools';
