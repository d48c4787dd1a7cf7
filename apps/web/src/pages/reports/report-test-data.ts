import type { FeedbackReportItem, KnowledgeGap } from '@werkwissen/shared';
import { DIVISION_ID, division, storage } from '../../test/fixtures.ts';

export const TAG_ID = '5d1c2b3a-4f5e-4a6b-8c7d-9e0f1a2b3c4d';
export const COMPANY_ID = '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d';

export function feedbackItem(overrides: Partial<FeedbackReportItem> = {}): FeedbackReportItem {
  return {
    id: '0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d',
    companyId: COMPANY_ID,
    companyName: 'Heiztechnik Müller GmbH',
    origin: 'employee',
    givenBy: 'Erika Monteur',
    chatId: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
    chatName: 'Wartung',
    divisions: ['Heizung'],
    question: 'Wie oft muss der Brenner der Therme gewartet werden?',
    answer: 'Einmal im Jahr [1].',
    noAnswer: false,
    liked: false,
    mood: 'negative',
    rating: 2,
    comment: 'Die Angabe ist veraltet.',
    tagId: TAG_ID,
    tagName: 'Preis veraltet',
    citations: [
      {
        n: 1,
        fileId: '2f4c1d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
        fileName: 'Wartungshandbuch.pdf',
        page: 12,
        passageId: '3a4b5c6d-7e8f-4a9b-8c1d-2e3f4a5b6c7d',
        text: 'Der Brenner ist jährlich zu warten.',
      },
      { n: 2, fileId: null, fileName: 'Alte Preisliste.pdf', page: 3, passageId: null, text: null },
    ],
    createdAt: '2025-03-04T10:15:00.000Z',
    updatedAt: '2025-03-04T10:16:00.000Z',
    ...overrides,
  };
}

export function gap(overrides: Partial<KnowledgeGap> = {}): KnowledgeGap {
  return {
    question: 'Was kostet der Notdienst am Wochenende?',
    variants: ['Notdienst Preis Sonntag', 'Wie teuer ist der Wochenend-Notdienst?'],
    count: 6,
    noAnswerCount: 4,
    negativeCount: 2,
    divisions: ['Heizung', 'Büro'],
    lastAskedAt: '2025-03-05T16:00:00.000Z',
    companyName: null,
    ...overrides,
  };
}

export const divisionsResponse = () => ({ items: [division()], limit: 3, storage });
export { DIVISION_ID };
