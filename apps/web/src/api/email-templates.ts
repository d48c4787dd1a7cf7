import { useQuery } from '@tanstack/react-query';
import { emailTemplateContracts, type Language, type TemplateText } from '@werkwissen/shared';
import { emailKeys } from './emails.ts';
import { call } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';

/** Query keys of the e-mail templates. */
export const templateKeys = {
  all: ['email-templates'] as const,
  list: () => [...templateKeys.all, 'list'] as const,
  detail: (kind: string) => [...templateKeys.all, 'detail', kind] as const,
  preview: (kind: string, language: Language, text: TemplateText) =>
    [...templateKeys.all, 'preview', kind, language, text] as const,
};

export function useEmailTemplates() {
  return useQuery({
    queryKey: templateKeys.list(),
    queryFn: () => call(emailTemplateContracts.list),
  });
}

export function useEmailTemplate(kind: string) {
  return useQuery({
    queryKey: templateKeys.detail(kind),
    queryFn: () => call(emailTemplateContracts.get, { params: { kind } }),
  });
}

/**
 * The draft rendered with sample data; `text` should be debounced by the caller. The last preview stays while the
 * next one loads, and a refused draft keeps it too (the error says why).
 */
export function useTemplatePreview(kind: string, language: Language, text: TemplateText) {
  return useQuery({
    queryKey: templateKeys.preview(kind, language, text),
    queryFn: () => call(emailTemplateContracts.preview, { params: { kind, language }, body: text }),
    placeholderData: (previous) => previous,
    enabled: text.subject.trim() !== '' && text.body.trim() !== '',
  });
}

interface Target {
  kind: string;
  language: Language;
}

export function useSaveTemplate(callbacks?: MutationCallbacks<Target & { text: TemplateText }, unknown>) {
  return useApiMutation(
    {
      mutationFn: ({ kind, language, text }: Target & { text: TemplateText }) =>
        call(emailTemplateContracts.update, { params: { kind, language }, body: text }),
      success: (t) => t('admin.templates.saved'),
      invalidates: () => [templateKeys.all],
    },
    callbacks,
  );
}

export function useResetTemplate(callbacks?: MutationCallbacks<Target, unknown>) {
  return useApiMutation(
    {
      mutationFn: (target: Target) => call(emailTemplateContracts.reset, { params: target }),
      success: (t) => t('admin.templates.resetDone'),
      invalidates: () => [templateKeys.all],
    },
    callbacks,
  );
}

/** Sends the saved template with sample data to the caller; the outbox lists it. */
export function useSendTestEmail(
  callbacks?: MutationCallbacks<Target, { message: string; emailId: string }>,
) {
  return useApiMutation(
    {
      mutationFn: (target: Target) => call(emailTemplateContracts.sendTest, { params: target }),
      success: (_t, data) => data.message,
      invalidates: () => [emailKeys.all],
    },
    callbacks,
  );
}
