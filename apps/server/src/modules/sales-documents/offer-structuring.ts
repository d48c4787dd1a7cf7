import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { languageModelOf, type ProviderConnection } from '../ai-providers/model-client.ts';
import type { PricedRow } from './price-lines.ts';

/** A priced row that retrieval found, with the passage it stands in. */
export interface Candidate {
  row: PricedRow;
  fileId: string;
  fileName: string;
  passageId: string;
}

/** A candidate chosen for the offer, with the quantity the job needs of it. */
export interface ChosenLine {
  candidate: Candidate;
  quantity: number;
}

/** What the model answers: the numbers of the rows the job needs and their quantities, nothing else. */
const answerSchema = z.object({
  lines: z.array(
    z.object({
      row: z.number().int().positive(),
      quantity: z.number().positive().max(1_000_000),
    }),
  ),
});

const SYSTEM = [
  "You prepare a craft business's offer from its own price list.",
  'You get the job as the customer described it and numbered rows of the price list.',
  'For each item the job asks for, choose the one row that names it, each row at most once, and the quantity the job',
  'states for it (in digits or in words, in any language) in the row’s unit (kilometres of travel, hours of work,',
  'pieces); 1 where the job names no quantity.',
  'Never invent a row, a price or an item; leave out rows the job does not ask for, also similar rows beside the',
  'chosen one (another kind of boiler, a master’s hour where a journeyman’s is asked).',
  'Answer with JSON only, in this form: {"lines":[{"row":1,"quantity":1}]}',
].join(' ');

/** The user message: the job, then each row with its number and unit as the price list writes it. */
export function structuringPrompt(job: string, candidates: Candidate[]): string {
  const rows = candidates.map(
    (c, i) => `[${i + 1}] ${c.row.row}${c.row.unit ? ` (unit: ${c.row.unit})` : ''}`,
  );
  return `Job: ${job}\n\nPrice list rows:\n${rows.join('\n')}`;
}

/** The JSON object in a model's answer (some wrap it in prose or a code fence), or null. */
function jsonIn(text: string): unknown {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    return JSON.parse(text.slice(start, end + 1));
  } catch {
    return null;
  }
}

/**
 * Lets the company's model choose from the candidates and set quantities. Only the choice is the model's: each line's
 * item, unit, price and citation are the candidate's own, so nothing the price list does not say can enter the
 * offer. Rows that were not offered and repeats are dropped, quantities rounded to three decimals. An empty list when
 * the model finds that the job needs none of the rows; null when the call fails or the answer is unusable, and the
 * caller then reads the rows itself.
 */
export async function structureWithModel(
  ctx: AppContext,
  connection: ProviderConnection,
  job: string,
  candidates: Candidate[],
): Promise<ChosenLine[] | null> {
  try {
    const { generateText } = await import('ai');
    const { text } = await generateText({
      model: await languageModelOf(connection, ctx.outbound.fetch),
      instructions: SYSTEM,
      prompt: structuringPrompt(job, candidates),
      temperature: 0,
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(ctx.config.CHAT_PROVIDER_TIMEOUT_SECONDS * 1000),
    });
    const parsed = answerSchema.safeParse(jsonIn(text));
    if (!parsed.success) {
      ctx.log.warn({ provider: connection.provider }, 'offer drafting: the model answered no usable JSON');
      return null;
    }
    const taken = new Set<number>();
    const lines = parsed.data.lines.flatMap(({ row, quantity }) => {
      const candidate = candidates[row - 1];
      if (!candidate || taken.has(row)) return [];
      taken.add(row);
      const rounded = Math.round(quantity * 1000) / 1000;
      return rounded > 0 ? [{ candidate, quantity: rounded }] : [];
    });
    // A valid answer that names no offered row means the job needs none of them; a broken one is read again by hand.
    if (lines.length === 0 && parsed.data.lines.length > 0) return null;
    return lines;
  } catch (error) {
    ctx.log.warn({ err: error, provider: connection.provider }, 'offer drafting: the model failed');
    return null;
  }
}
