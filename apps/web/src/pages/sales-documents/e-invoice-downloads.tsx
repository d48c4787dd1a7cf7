import { IconFileCode, IconFileInvoice } from '@tabler/icons-react';
import type { SalesDocumentSummary } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { salesDocumentFacturXUrl, salesDocumentXRechnungUrl } from '../../api/sales-documents.ts';
import { DownloadLink } from './download-link.tsx';

/** The German e-invoice downloads of an issued invoice or credit note: XRechnung (XML) and ZUGFeRD / Factur-X. */
export function EInvoiceDownloads({ document: d }: { document: SalesDocumentSummary }) {
  const { t } = useTranslation();
  if (!d.number || (d.type !== 'invoice' && d.type !== 'creditNote')) return null;
  return (
    <>
      <DownloadLink
        label={t('handwerk.downloadXRechnung')}
        href={salesDocumentXRechnungUrl(d.id)}
        icon={<IconFileCode size={18} />}
      />
      <DownloadLink
        label={t('handwerk.downloadFacturX')}
        href={salesDocumentFacturXUrl(d.id)}
        icon={<IconFileInvoice size={18} />}
      />
    </>
  );
}
