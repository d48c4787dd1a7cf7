import { useQuery } from '@tanstack/react-query';
import {
  type ConvertBody,
  type CustomerBody,
  customerContracts,
  type DocumentMailBody,
  type draftOfferBodySchema,
  type SalesDocument,
  type SalesDocumentBody,
  type SalesDocumentType,
  salesDocumentContracts,
} from '@werkwissen/shared';
import type { z } from 'zod';
import type { ListQuery } from '../components/data-table.tsx';
import { dashboardKeys } from './dashboard.ts';
import { call } from './http.ts';
import { type MutationCallbacks, useApiMutation } from './mutation.ts';

/** Query keys of the company's offers, invoices and customers (/handwerk). */
export const handwerkKeys = {
  all: ['handwerk'] as const,
  documents: () => [...handwerkKeys.all, 'documents'] as const,
  customers: () => [...handwerkKeys.all, 'customers'] as const,
};

/** A document changes the list and the dashboard's figures. */
const documentsChanged = () => [handwerkKeys.documents(), dashboardKeys.all];

/** The data table's source for the documents list (paged, searched and filtered on the server), of one type or all. */
export const salesDocumentTable = (type?: SalesDocumentType) => ({
  queryKey: [...handwerkKeys.documents(), type ?? 'all'],
  fetchPage: (query: ListQuery) =>
    call(salesDocumentContracts.list, {
      query: { page: query.page, pageSize: query.pageSize, q: query.q, ...(type ? { type } : {}) },
    }),
});

/** The company's customers for a picker (the first hundred by name). */
export function useCustomerOptions() {
  return useQuery({
    queryKey: handwerkKeys.customers(),
    queryFn: () => call(customerContracts.list, { query: { page: 1, pageSize: 100 } }),
  });
}

/** The PDF's address: a link the browser downloads (the session cookie authenticates it). */
export const salesDocumentPdfUrl = (documentId: string) => `/api/v1/handwerk/documents/${documentId}/pdf`;
/** An issued invoice or credit note as XRechnung (CII XML). */
export const salesDocumentXRechnungUrl = (documentId: string) =>
  `/api/v1/handwerk/documents/${documentId}/xrechnung.xml`;
/** An issued invoice or credit note as ZUGFeRD / Factur-X (PDF/A-3 with the XML embedded). */
export const salesDocumentFacturXUrl = (documentId: string) =>
  `/api/v1/handwerk/documents/${documentId}/factur-x.pdf`;

/** The data table's source for the customers list. */
export const customerTable = {
  queryKey: handwerkKeys.customers(),
  fetchPage: (query: ListQuery) =>
    call(customerContracts.list, {
      query: { page: query.page, pageSize: query.pageSize, q: query.q },
    }),
};

export function useUpdateCustomer(
  callbacks?: MutationCallbacks<{ customerId: string; body: CustomerBody }, unknown>,
) {
  return useApiMutation(
    {
      mutationFn: ({ customerId, body }: { customerId: string; body: CustomerBody }) =>
        call(customerContracts.update, { params: { customerId }, body }),
      success: (t) => t('handwerk.customerSaved'),
      invalidates: () => [handwerkKeys.customers(), handwerkKeys.documents()],
    },
    callbacks,
  );
}

export function useDeleteCustomer(callbacks?: MutationCallbacks<string, unknown>) {
  return useApiMutation(
    {
      mutationFn: (customerId: string) => call(customerContracts.remove, { params: { customerId } }),
      success: (t) => t('handwerk.customerDeleted'),
      invalidates: () => [handwerkKeys.customers()],
    },
    callbacks,
  );
}

export function useCreateCustomer(callbacks?: MutationCallbacks<CustomerBody, unknown>) {
  return useApiMutation(
    {
      mutationFn: (body: CustomerBody) => call(customerContracts.create, { body }),
      success: (t) => t('handwerk.customerAdded'),
      invalidates: () => [handwerkKeys.customers()],
    },
    callbacks,
  );
}

export function useDraftOffer(
  callbacks?: MutationCallbacks<z.input<typeof draftOfferBodySchema>, SalesDocument>,
) {
  return useApiMutation(
    {
      mutationFn: (body: z.input<typeof draftOfferBodySchema>) =>
        call(salesDocumentContracts.draftOffer, { body }),
      success: (t, document) => t('handwerk.drafted', { count: document.lines.length }),
      invalidates: documentsChanged,
    },
    callbacks,
  );
}

export function useFinaliseDocument() {
  return useApiMutation({
    mutationFn: (documentId: string) => call(salesDocumentContracts.finalise, { params: { documentId } }),
    success: (t, document) => t('handwerk.finalised', { number: document.number }),
    invalidates: documentsChanged,
  });
}

export function useConvertDocument() {
  return useApiMutation({
    mutationFn: ({ documentId, ...body }: ConvertBody & { documentId: string }) =>
      call(salesDocumentContracts.convert, { params: { documentId }, body }),
    success: (t, document) => t('handwerk.converted', { type: t(`documents.type.${document.type}`) }),
    invalidates: documentsChanged,
  });
}

/** An issued offer or order confirmation marked accepted, an issued invoice paid. */
export function useSetDocumentStatus() {
  return useApiMutation({
    mutationFn: ({ documentId, status }: { documentId: string; status: 'accepted' | 'paid' }) =>
      call(salesDocumentContracts.setStatus, { params: { documentId }, body: { status } }),
    success: (t, document) =>
      t('handwerk.statusChanged', {
        number: document.number,
        status: t(`handwerk.status.${document.status}`),
      }),
    invalidates: documentsChanged,
  });
}

/** Deletes a draft (issued documents stay; a credit note corrects an invoice). */
export function useDeleteDocument(callbacks?: MutationCallbacks<string, unknown>) {
  return useApiMutation(
    {
      mutationFn: (documentId: string) => call(salesDocumentContracts.remove, { params: { documentId } }),
      success: (t) => t('handwerk.draftDeleted'),
      invalidates: documentsChanged,
    },
    callbacks,
  );
}

/** The mail an issued document is sent with (address, subject and text in its language); none while not needed. */
export function useDocumentMailDraft(documentId: string) {
  return useQuery({
    queryKey: [...handwerkKeys.documents(), 'mail-draft', documentId],
    queryFn: () => call(salesDocumentContracts.mailDraft, { params: { documentId } }),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

const documentMailsKey = (documentId: string) => [...handwerkKeys.documents(), 'mails', documentId];

/** The mails that took a document to a customer, with their delivery status (refreshed while one is on its way). */
export function useDocumentMails(documentId: string) {
  return useQuery({
    queryKey: documentMailsKey(documentId),
    queryFn: () => call(salesDocumentContracts.mails, { params: { documentId } }),
    refetchInterval: (query) => (query.state.data?.items.some((m) => m.status === 'queued') ? 2000 : false),
  });
}

export function useSendDocumentMail(
  callbacks?: MutationCallbacks<{ documentId: string; body: DocumentMailBody }, unknown>,
) {
  return useApiMutation(
    {
      mutationFn: ({ documentId, body }: { documentId: string; body: DocumentMailBody }) =>
        call(salesDocumentContracts.sendMail, { params: { documentId }, body }),
      success: (t, _mail, { body }) => t('handwerk.send.queued', { email: body.to }),
      invalidates: ({ documentId }) => [documentMailsKey(documentId)],
    },
    callbacks,
  );
}

/** One document with its lines (for the editor). */
export function useSalesDocument(documentId: string) {
  return useQuery({
    queryKey: [...handwerkKeys.documents(), 'detail', documentId],
    queryFn: () => call(salesDocumentContracts.get, { params: { documentId } }),
  });
}

export function useSaveDocument(
  callbacks?: MutationCallbacks<{ documentId: string; body: SalesDocumentBody }, SalesDocument>,
) {
  return useApiMutation(
    {
      mutationFn: ({ documentId, body }: { documentId: string; body: SalesDocumentBody }) =>
        call(salesDocumentContracts.update, { params: { documentId }, body }),
      success: (t) => t('handwerk.saved'),
      invalidates: documentsChanged,
    },
    callbacks,
  );
}
