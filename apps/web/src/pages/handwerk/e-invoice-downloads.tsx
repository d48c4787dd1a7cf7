import { IconButton, Tooltip } from '@mui/material';
import { IconFileCode, IconFileInvoice } from '@tabler/icons-react';
import type { SalesDocumentSummary } from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { salesDocumentFacturXUrl, salesDocumentXRechnungUrl } from '../../api/handwerk.ts';

/** The German e-invoice downloads of an issued invoice or credit note: XRechnung (XML) and ZUGFeRD / Factur-X. */
export function EInvoiceDownloads({ document: d }: { document: SalesDocumentSummary }) {
  const { t } = useTranslation();
  if (!d.number || (d.type !== 'invoice' && d.type !== 'creditNote')) return null;
  return (
    <>
      <Tooltip title={t('handwerk.downloadXRechnung')}>
        <IconButton
          aria-label={t('handwerk.downloadXRechnung')}
          component="a"
          href={salesDocumentXRechnungUrl(d.id)}
          download
        >
          <IconFileCode size={18} />
        </IconButton>
      </Tooltip>
      <Tooltip title={t('handwerk.downloadFacturX')}>
        <IconButton
          aria-label={t('handwerk.downloadFacturX')}
          component="a"
          href={salesDocumentFacturXUrl(d.id)}
          download
        >
          <IconFileInvoice size={18} />
        </IconButton>
      </Tooltip>
    </>
  );
}
