import type { ConnectorFailure, ConnectorKind, Language } from '@werkwissen/shared';
import { translate } from '../../i18n/translator.ts';

/** Why a connector failed, in `lang`, naming its kind as `{{source}}` ("Google Drive has withdrawn the access"). */
export function failureText(lang: Language, reason: ConnectorFailure, kind: ConnectorKind): string {
  return translate(lang, `connectors.failure.${reason}`, {
    source: translate(lang, `connectors.sourceName.${kind}`),
  });
}
