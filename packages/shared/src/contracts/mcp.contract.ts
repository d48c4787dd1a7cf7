import { z } from 'zod';
import { askBodySchema } from './chats.contract.ts';
import { defineContract, errorBodySchema, listQuerySchema } from './route-contract.ts';
import { searchQuerySchema } from './search.contract.ts';

/**
 * The MCP server's tools (Model Context Protocol, Streamable HTTP at /api/v1/mcp) and their inputs, built from the
 * contracts of the routes they stand for: a tool takes what its route takes, as JSON (numbers are numbers, not query
 * strings). Their JSON Schemas are what `tools/list` shows a model.
 */
export const mcpToolInputs = {
  search: searchQuerySchema.extend({ limit: z.number().int().min(1).max(50).default(10) }),
  ask: z.strictObject({ chatId: z.uuid(), question: askBodySchema.shape.content }),
  list_chats: z.strictObject({ q: listQuerySchema.shape.q }),
  list_divisions: z.strictObject({}),
  get_passage: z.strictObject({ passageId: z.uuid() }),
  get_file_text: z.strictObject({
    fileId: z.uuid(),
    /** The first passage to return (its position in the file, from 0). */
    start: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(100).default(30),
  }),
} as const;
export type McpToolName = keyof typeof mcpToolInputs;
export const MCP_TOOL_NAMES = Object.keys(mcpToolInputs) as McpToolName[];

const tags = ['mcp'];
/** A JSON-RPC 2.0 message of the Model Context Protocol (the SDK checks it: errors come back as JSON-RPC errors). */
const mcpMessage = z.unknown().meta({
  description:
    'A JSON-RPC 2.0 request or notification of the Model Context Protocol (initialize, tools/list, tools/call, ping). ' +
    'Send `Accept: application/json, text/event-stream`. Stateless: no session id; each POST is answered on its own.',
});
const mcpAnswer = z.unknown().meta({
  description:
    'The JSON-RPC response (application/json); a tool refused or failed answers `isError: true` with ' +
    '`structuredContent.error` `{ code, message }`, our stable code and its translated message.',
});

export const mcpContracts = {
  message: defineContract({
    method: 'POST',
    path: '/mcp',
    operationId: 'mcpMessage',
    summary:
      'MCP server (Streamable HTTP, stateless): tools search, ask, list_chats, list_divisions, get_passage, get_file_text, as the API key’s user',
    tags,
    permission: 'signedIn',
    oauthResource: true,
    body: mcpMessage,
    responses: { 200: mcpAnswer, 202: z.unknown().meta({ description: 'A notification was accepted.' }) },
  }),
  stream: defineContract({
    method: 'GET',
    path: '/mcp',
    operationId: 'mcpStream',
    summary: 'The MCP server opens no server-to-client stream (stateless): always 405',
    tags,
    permission: 'signedIn',
    oauthResource: true,
    responses: { 405: errorBodySchema },
  }),
};
