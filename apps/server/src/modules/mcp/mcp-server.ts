import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode as JsonRpcError,
  type Tool as ListedTool,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { type ErrorCode, type Language, MCP_TOOL_NAMES, type McpToolName } from '@werkwissen/shared';
import { z } from 'zod';
import { AppError } from '../../core/app-error.ts';
import { described } from '../../http/error-handler.ts';
import { hasTranslation, translate } from '../../i18n/translator.ts';
import { MCP_TOOLS, type Tool, type ToolCall } from './mcp-tools.ts';

const isTool = (name: string): name is McpToolName => (MCP_TOOL_NAMES as string[]).includes(name);

/** The tools as `tools/list` shows them: name, description and the JSON Schema of the input contract. */
const TOOL_LIST: ListedTool[] = MCP_TOOL_NAMES.map((name) => ({
  name,
  description: MCP_TOOLS[name].description,
  inputSchema: z.toJSONSchema(MCP_TOOLS[name].input, { io: 'input' }) as ListedTool['inputSchema'],
  annotations: { readOnlyHint: name !== 'ask', openWorldHint: false },
}));

/** A refused or failed call as MCP reports it (`isError`), with our stable code and its translated message. */
function toolError(language: Language, code: ErrorCode, details?: Record<string, unknown>): CallToolResult {
  const { status: _status, ...error } = described(code, language, details);
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify({ error }) }],
    structuredContent: { error },
  };
}

/** Each refused input field with a translated message, as the API's VALIDATION_FAILED names them. */
function invalidFields(language: Language, error: z.ZodError) {
  return error.issues.map((issue) => {
    const key =
      issue.code === 'unrecognized_keys'
        ? 'validation.unknownField'
        : /^validation\./.test(issue.message) && hasTranslation(issue.message)
          ? issue.message
          : 'validation.invalid';
    const limits = issue as { maximum?: unknown; minimum?: unknown };
    const unknown = issue.code === 'unrecognized_keys' ? issue.keys : [];
    return {
      field: [...issue.path, ...unknown].join('.'),
      code: key,
      message: translate(language, key, { maximum: limits.maximum, minimum: limits.minimum }),
    };
  });
}

/** Parses a tool's input with its contract and runs the tool with it. */
async function runTool<S extends z.ZodType>(
  call: ToolCall,
  tool: Tool<S>,
  args: unknown,
): Promise<CallToolResult> {
  if (!call.actor.ability.can(tool.permission.action, tool.permission.subject))
    throw new AppError('FORBIDDEN');
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) {
    return toolError(call.language, 'VALIDATION_FAILED', {
      fields: invalidFields(call.language, parsed.error),
    });
  }
  const data = await tool.run(call, parsed.data);
  return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
}

async function callTool(call: ToolCall, name: string, args: unknown): Promise<CallToolResult> {
  if (!isTool(name)) throw new McpError(JsonRpcError.InvalidParams, `Unknown tool: ${name}`);
  try {
    return await runTool(call, MCP_TOOLS[name], args);
  } catch (error) {
    if (error instanceof AppError) return toolError(call.language, error.code, error.details);
    call.ctx.log.error({ err: error, tool: name }, 'MCP tool failed');
    return toolError(call.language, 'INTERNAL');
  }
}

/**
 * Answers one HTTP request of the MCP Streamable HTTP transport, statelessly: a new server and transport per request
 * (no session id, no server-to-client stream), JSON answers, the tools run as the caller.
 */
export async function answerMcpRequest(call: ToolCall, request: Request, body: unknown): Promise<Response> {
  const server = new Server(
    { name: call.ctx.config.APP_TITLE, version: '1' },
    {
      capabilities: { tools: {} },
      instructions:
        'Company knowledge: search the documents, read passages and files, and ask cited questions in a chat. ' +
        'Cite answers by file name, page and passage id.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOL_LIST }));
  server.setRequestHandler(CallToolRequestSchema, async (req) =>
    callTool(call, req.params.name, req.params.arguments),
  );
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody: body });
  } finally {
    await server.close();
  }
}
