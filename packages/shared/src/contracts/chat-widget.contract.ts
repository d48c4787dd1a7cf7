import { z } from 'zod';
import { singleLineText } from './fields.ts';
import {
  publicChatSchema,
  publicVisitorSchema,
  shareTokenField,
  visitorBodySchema,
} from './public-chats.contract.ts';
import { defineContract, uuidParam } from './route-contract.ts';

/** Most website origins one widget may be framed by. */
export const WIDGET_ORIGINS_MAX = 20;

/** The header a widget's frame sends its visitor token in (a cross-site frame gets no SameSite cookie). */
export const VISITOR_TOKEN_HEADER = 'x-visitor-token';

/** What an origin may look like once normalized: scheme, a host of letters, digits, dots and dashes (or IPv6), a port. */
const ORIGIN_SHAPE = /^https?:\/\/(\[[0-9a-f:.]+\]|[a-z0-9-]+(\.[a-z0-9-]+)*)(:\d{1,5})?$/;

/**
 * A website origin as CSP's `frame-ancestors` takes it: `http(s)://host[:port]`, nothing else (no path, query,
 * user or wildcard: a widget names each website it may appear on). Returns the normalized origin (lower case, default
 * port left out, punycode) or null. The strict shape also keeps `;` and `,` out of the header the origin goes into.
 */
export function websiteOrigin(text: string): string | null {
  const given = text.trim().replace(/\/$/, '');
  if (given.includes('*') || !/^https?:\/\//i.test(given)) return null;
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    return null;
  }
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) return null;
  return ORIGIN_SHAPE.test(url.origin) ? url.origin : null;
}

/** A control character is refused as one (like in every text field) before the origin's shape is judged. */
export const widgetOriginField = singleLineText(300).transform((value, ctx) => {
  const origin = websiteOrigin(value);
  if (origin === null) ctx.addIssue({ code: 'custom', message: 'validation.origin' });
  return origin ?? '';
});

export const chatWidgetSchema = z
  .object({
    /** The public chat shows as a widget on the allowed websites. */
    enabled: z.boolean(),
    /** The website origins that may frame the widget (CSP `frame-ancestors`). */
    origins: z.array(z.string()),
  })
  .meta({ id: 'ChatWidget' });
export type ChatWidget = z.infer<typeof chatWidgetSchema>;

export const chatWidgetBodySchema = z
  .strictObject({
    enabled: z.boolean(),
    origins: z
      .array(widgetOriginField)
      .max(WIDGET_ORIGINS_MAX, { message: 'validation.originsTooMany' })
      .transform((origins) => [...new Set(origins)]),
  })
  .refine((b) => !b.enabled || b.origins.length > 0, {
    message: 'validation.originsRequired',
    path: ['origins'],
  });
export type ChatWidgetBody = z.input<typeof chatWidgetBodySchema>;

/** A widget's visitor, with the token its frame keeps and sends back in `x-visitor-token`. */
export const widgetVisitorSchema = publicVisitorSchema.extend({ visitorToken: z.string() });

const tags = ['chats'];
const publish = { action: 'publish', subject: 'Chat' } as const;
const tokenParams = z.object({ token: shareTokenField });

export const chatWidgetContracts = {
  get: defineContract({
    method: 'GET',
    path: '/chats/:chatId/widget',
    operationId: 'getChatWidget',
    summary: "A public chat's website widget: whether it is on and the websites allowed to show it",
    tags,
    permission: publish,
    params: uuidParam('chatId'),
    responses: { 200: chatWidgetSchema },
  }),
  update: defineContract({
    method: 'PUT',
    path: '/chats/:chatId/widget',
    operationId: 'updateChatWidget',
    summary:
      'Turns a shared public chat into a website widget (or off) and sets the website origins that may frame it (publish permission)',
    tags,
    permission: publish,
    params: uuidParam('chatId'),
    body: chatWidgetBodySchema,
    responses: { 200: chatWidgetSchema },
  }),
  view: defineContract({
    method: 'GET',
    path: '/public/widgets/:token',
    operationId: 'getChatWidgetView',
    summary:
      'The public chat a website widget shows (404 unless the widget is on); the visitor is known by the `x-visitor-token` header',
    tags: ['public-chats'],
    permission: 'public',
    params: tokenParams,
    responses: { 200: publicChatSchema },
  }),
  join: defineContract({
    method: 'POST',
    path: '/public/widgets/:token/visitor',
    operationId: 'joinChatWidget',
    summary:
      "Becomes a widget's visitor after the bot check; the answer's `visitorToken` goes in the `x-visitor-token` header of the public chat's calls",
    tags: ['public-chats'],
    permission: 'public',
    params: tokenParams,
    body: visitorBodySchema,
    responses: { 200: widgetVisitorSchema },
  }),
};
