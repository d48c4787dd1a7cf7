import {
  chatContracts,
  divisionContracts,
  ERROR_STATUS,
  type ErrorCode,
  fileContracts,
  type Language,
  type McpToolName,
  mcpToolInputs,
  searchContracts,
} from '@werkwissen/shared';
import type { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import type { Actor } from '../../core/actor.ts';
import { AppError } from '../../core/app-error.ts';
import { answerQuestion } from '../chat/answer-stream.ts';
import { chatScope, listChats, loadChatWithThread } from '../chat/chats.service.ts';
import type { EvidenceSearch } from '../chat/evidence-order.ts';
import { listDivisions } from '../divisions/divisions.service.ts';
import { getFileText, getPassage } from '../files/passages.service.ts';
import { searchKnowledge } from '../search/search.service.ts';

/** What a tool runs with: the app, who calls (an API key's user), in which language, and the search to use. */
export interface ToolCall {
  ctx: AppContext;
  actor: Actor;
  language: Language;
  search: EvidenceSearch;
}

export interface Tool<S extends z.ZodType> {
  /** The input's contract (mcp.contract.ts): its JSON Schema is listed, and every call is parsed with it. */
  input: S;
  description: string;
  /** The permission of the route the tool stands for: without it the call is refused (FORBIDDEN). */
  permission: { action: 'read'; subject: 'File' | 'Chat' | 'Division' };
  run(call: ToolCall, input: z.output<S>): Promise<Record<string, unknown>>;
}

const isErrorCode = (code: string): code is ErrorCode => code in ERROR_STATUS;

export type Tools = { [K in McpToolName]: Tool<(typeof mcpToolInputs)[K]> };

/**
 * The MCP server's tools, each the service of an existing route with that route's permission, so that a key reaches
 * what its user reaches and nothing more. Results name what a model cites: file, page, headings and passage id.
 */
export const MCP_TOOLS: Tools = {
  search: {
    input: mcpToolInputs.search,
    description:
      'Searches the company documents the caller may read (hybrid full-text and vector search). Returns passages ' +
      'with file name, page, heading path, text and passage id, best first.',
    permission: searchContracts.search.permission,
    run: async ({ ctx, actor, search }, input) => ({
      hits: (await searchKnowledge(ctx, actor, search, input)).map((hit) => ({
        passageId: hit.passageId,
        fileId: hit.fileId,
        fileName: hit.fileName,
        divisionId: hit.divisionId,
        divisionName: hit.divisionName,
        page: hit.page,
        headingPath: hit.headingPath,
        text: hit.text,
        score: hit.score,
      })),
    }),
  },
  ask: {
    input: mcpToolInputs.ask,
    description:
      'Asks a question in a chat (see list_chats) and returns the cited answer: the answer text with [n] markers and ' +
      'the sources (file name, page, heading path, passage id, quoted text). Counts against the plan’s question limit.',
    permission: chatContracts.ask.permission,
    run: async ({ ctx, actor, language }, input) => {
      const { chat, threadId } = await loadChatWithThread(ctx, actor, input.chatId);
      const answer = await answerQuestion(
        ctx,
        {
          chat,
          threadId,
          scope: chatScope(chat, actor),
          language,
          ask: { question: input.question },
        },
        { emit: () => {} },
      );
      if (answer.errorCode) throw new AppError(isErrorCode(answer.errorCode) ? answer.errorCode : 'INTERNAL');
      return {
        chatId: chat.id,
        messageId: answer.id,
        answer: answer.content,
        noAnswer: answer.noAnswer,
        citations: answer.citations,
      };
    },
  },
  list_chats: {
    input: mcpToolInputs.list_chats,
    description:
      'Lists the chats the caller may ask in (their own and the company’s public ones), with their divisions; ' +
      '`canAsk` tells whether a chat has a ready file to answer from.',
    permission: chatContracts.list.permission,
    run: async ({ ctx, actor }, input) => {
      const { items, total } = await listChats(ctx, actor, { page: 1, pageSize: 100, q: input.q });
      return {
        total,
        chats: items.map((c) => ({ chatId: c.id, name: c.name, divisions: c.divisions, canAsk: c.canAsk })),
      };
    },
  },
  list_divisions: {
    input: mcpToolInputs.list_divisions,
    description:
      'Lists the divisions (document collections) the caller may read, with their number of files.',
    permission: divisionContracts.list.permission,
    run: async ({ ctx, actor }) => ({
      divisions: (await listDivisions(ctx, actor)).items.map((d) => ({
        divisionId: d.id,
        name: d.name,
        fileCount: d.fileCount,
      })),
    }),
  },
  get_passage: {
    input: mcpToolInputs.get_passage,
    description:
      'Returns one passage by its id (from search or a citation): its text, file, page, heading path and its position in the file.',
    permission: fileContracts.get.permission,
    run: async ({ ctx, actor }, input) => ({ ...(await getPassage(ctx, actor, input.passageId)) }),
  },
  get_file_text: {
    input: mcpToolInputs.get_file_text,
    description:
      'Returns the text of a file the caller may read, as its passages in order (each with passage id, page and ' +
      'headings), `limit` of them from position `start`; `nextStart` continues, null after the last.',
    permission: fileContracts.get.permission,
    run: async ({ ctx, actor }, input) => getFileText(ctx, actor, input),
  },
};
