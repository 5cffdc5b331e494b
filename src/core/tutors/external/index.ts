export { AGENT_PROTOCOL, AgentError, agentInstructions, externalParts, externalRunLabel, isAgentError, labelPart, statusView, wakeView, type AgentErrorCode, type CallResultView, type TurnStatusView, type WakeView } from './protocol';
export {
  AgentReplySchema,
  HTTP_PROTOCOL,
  HelloReplySchema,
  HttpTutorConfigSchema,
  MAX_CALLS_PER_REPLY,
  ReplayHttp,
  helloAgent,
  httpTutor,
  httpTutorConfig,
  parseAgentReply,
  type AgentReply,
  type HttpReply,
  type HttpTransport,
  type HttpTutorConfig,
  type HttpTutorConfigInput,
  type WakeBody,
} from './http';
export { McpTutorConfigSchema, mcpTutor, mcpTutorConfig, type McpTutorConfig } from './mcp';
export { readCapped, redactSecret } from './transport';
