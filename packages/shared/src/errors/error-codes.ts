/**
 * Every stable error code the API answers with, and its HTTP status. The translated message of a code is the
 * locale key `errors.<CODE>`; clients may rely on the code, never on the message text.
 */
export const ERROR_STATUS = {
  INVALID_JSON: 400,
  BAD_REQUEST: 400,
  TOKEN_INVALID: 400,
  /** A public form (sign-up, forgot or reset password, ...) sent without the bot check's answer (`botCheck`). */
  BOT_CHECK_MISSING: 400,
  UNAUTHENTICATED: 401,
  VISITOR_REQUIRED: 401,
  INVALID_CREDENTIALS: 401,
  SESSION_EXPIRED: 401,
  /** A sign-in to an account with several failed sign-ins needs the bot check's answer as well. */
  BOT_CHECK_REQUIRED: 401,
  FORBIDDEN: 403,
  BOT_CHECK_FAILED: 403,
  CSRF_INVALID: 403,
  SIGNUP_DISABLED: 403,
  /** The account was deactivated by the operator (told only to someone who knows its password). */
  ACCOUNT_DEACTIVATED: 403,
  /** The user's company is suspended by the operator: no sign-in, no session, no API key. */
  COMPANY_SUSPENDED: 403,
  /** A public chat (or share link) of a suspended company. */
  PUBLIC_CHAT_SUSPENDED: 403,
  /**
   * Changes of who the user is (password, e-mail address, phone number and its confirmation, second factor, sign-in
   * providers, API keys) are refused while an operator views the product as the user.
   */
  IMPERSONATION_RESTRICTED: 403,
  /** The company's plan has ended: it may sign in, read, export and pay, but not upload or ask. */
  PLAN_EXPIRED: 403,
  /** Mail with the user's own text or recipients (a document, an invitation) waits for a confirmed address. */
  EMAIL_NOT_VERIFIED: 403,
  NOT_FOUND: 404,
  /** The address exists, but not for this method (the MCP server's GET: it opens no stream). */
  METHOD_NOT_ALLOWED: 405,
  EMAIL_TAKEN: 409,
  /** An e-mail change to the address the account already has. */
  EMAIL_UNCHANGED: 409,
  WRONG_AREA: 409,
  DIVISION_EXISTS: 409,
  /** A limit of the company's plan (details: `limit`, `max`, `plan`, `upgradePlan`, translated names). */
  PLAN_LIMIT_REACHED: 409,
  /** Billing is switched off (PAYMENTS_ENABLED=false) or the plan is not sold through Stripe. */
  PAYMENTS_DISABLED: 409,
  PLAN_NOT_FOR_SALE: 409,
  /** Cancelling or the customer portal needs a subscription paid through Stripe. */
  NO_PAID_SUBSCRIPTION: 409,
  /** A Stripe webhook whose `Stripe-Signature` is missing, wrong or too old. */
  WEBHOOK_SIGNATURE_INVALID: 400,
  ALREADY_ACTIVE: 409,
  /** Only an enabled data manager or employee of an active company may be viewed as, and not by themselves. */
  IMPERSONATION_NOT_ALLOWED: 409,
  NOT_IMPERSONATING: 409,
  FILE_DUPLICATE: 409,
  FILE_NOT_RETRYABLE: 409,
  FILE_NOT_CANCELLABLE: 409,
  /** A file synced from a connector is deleted at its source (it would come back), not by hand. */
  FILE_SYNCED: 409,
  /** A sync of the connector already waits or runs. */
  CONNECTOR_SYNC_RUNNING: 409,
  /** A paused connector is resumed before it syncs. */
  CONNECTOR_PAUSED: 409,
  /** Microsoft 365 is connected through the operator's Entra app, which is not registered yet. */
  MICROSOFT_APP_UNCONFIGURED: 409,
  /** Google Drive is connected through the operator's Google OAuth client, which is not registered yet. */
  GOOGLE_APP_UNCONFIGURED: 409,
  CHAT_NO_READY_FILE: 409,
  CHAT_NOT_PUBLIC: 409,
  /** A website widget shows a public chat through its share link: none, no widget. */
  CHAT_NOT_SHARED: 409,
  TAG_EXISTS: 409,
  PROVIDER_NOT_CONFIGURED: 409,
  SPEECH_UNAVAILABLE: 409,
  PAYLOAD_TOO_LARGE: 413,
  FILE_TOO_LARGE: 413,
  QUOTA_EXCEEDED: 413,
  TOO_MANY_FILES: 413,
  AUDIO_TOO_LARGE: 413,
  LOGO_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  FILE_TYPE_UNSUPPORTED: 415,
  LOGO_TYPE_UNSUPPORTED: 415,
  FILE_EMPTY: 422,
  FILE_PASSWORD_PROTECTED: 422,
  FILE_NO_TEXT: 422,
  FILE_CORRUPT: 422,
  FILE_ENCODING_UNKNOWN: 422,
  FILE_PARSE_LIMIT: 422,
  /** An e-mail template names a `{{variable}}` its kind does not provide. */
  TEMPLATE_VARIABLE_UNKNOWN: 422,
  /** An e-mail template lacks a variable its kind needs (the action link). */
  TEMPLATE_VARIABLE_MISSING: 422,
  /** An e-mail template has `{{` or `}}` that do not enclose a variable name. */
  TEMPLATE_SYNTAX_INVALID: 422,
  /**
   * The source of a new connector could not be read with what was entered (details.reason says why: address, login,
   * folder, outbound policy); nothing was stored.
   */
  CONNECTOR_UNREACHABLE: 422,
  /** A consent's state that is not this server's, has expired, or belongs to another user. */
  CONNECTOR_CONSENT_INVALID: 422,
  /** Microsoft refused to redeem the consent's code (used, expired, or the app's secret is wrong). */
  CONNECTOR_CONSENT_FAILED: 422,
  FILE_PROCESSING_FAILED: 500,
  NO_FILES: 422,
  AUDIO_EMPTY: 422,
  VALIDATION_FAILED: 422,
  /** The typed confirmation of a deletion is not the company's name or the user's e-mail. */
  CONFIRMATION_MISMATCH: 422,
  CURRENT_PASSWORD_WRONG: 422,
  /** A period whose start is after its end, or longer than the figures cover (the message names the limit). */
  PERIOD_INVALID: 422,
  RATE_LIMITED: 429,
  PUBLIC_CHAT_BUSY: 429,
  /** The company's mails of the last hour or day reached its mail budget (details: scope, max, seconds). */
  MAIL_BUDGET_EXCEEDED: 429,
  INTERNAL: 500,
  PROVIDER_ERROR: 502,
  /** Stripe refused or could not be reached. */
  PAYMENT_PROVIDER_ERROR: 502,
  PROVIDER_STREAM_INTERRUPTED: 502,
  /** The provider's address is private or local and the outbound policy does not allow it. */
  PROVIDER_BLOCKED: 502,
  /** The provider answered 401 or 403: the key is wrong or lacks the permission. */
  PROVIDER_KEY_REFUSED: 502,
  SERVICE_UNAVAILABLE: 503,
  /** The server was stopped (a restart or an update) while it answered; the partial answer is kept. */
  SERVER_STOPPING: 503,
  PROVIDER_TIMEOUT: 504,
  /** A role's rules would grant a right the caller does not hold themselves. */
  ROLE_GRANT_EXCEEDS_OWN: 403,
  ROLE_NAME_TAKEN: 409,
  /** Nobody changes a role they hold themselves (nor their own roles as a staff member). */
  ROLE_OWN: 409,
  /** A system role (one per user kind) is reset, never deleted or renamed. */
  ROLE_SYSTEM: 409,
  /** Only a system role has defaults to reset to. */
  ROLE_NO_DEFAULTS: 409,
  /** A role somebody still holds is not deleted. */
  ROLE_IN_USE: 409,
  /** The change would leave no active user who can manage roles. */
  ROLE_LOCKOUT: 409,
  /** The change would leave no active Administrator. */
  LAST_ADMINISTRATOR: 409,
  /** A company role (data manager, employee, public user) is not given to a staff member. */
  ROLE_NOT_ASSIGNABLE: 422,
  /** Nobody deactivates or deletes their own account from the staff list. */
  STAFF_SELF: 409,
  /** A rule's conditions name an attribute or operator the server cannot read in SQL. */
  ROLE_RULES_INVALID: 422,
  /** The sign-in waiting for its second factor is unknown, used, expired or had too many wrong codes. */
  TWO_FACTOR_CHALLENGE_EXPIRED: 401,
  /** The authenticator code or recovery code is wrong, or was already used. */
  TWO_FACTOR_CODE_INVALID: 422,
  /** No authenticator is set up (or its enrolment was not started). */
  TWO_FACTOR_NOT_ENROLLED: 409,
  /** An authenticator is already in force; it must be switched off or reset first. */
  TWO_FACTOR_ALREADY_ENABLED: 409,
  /** The user's roles require a second factor: it cannot be switched off. */
  TWO_FACTOR_REQUIRED: 409,
  /** An administrator resets other users' second factor, not their own. */
  TWO_FACTOR_RESET_SELF: 409,
  /** Too many wrong codes for the account lately, over all its sign-ins: the next waits (details: `seconds`). */
  TWO_FACTOR_SLOWED: 429,
  /** So many wrong codes within a day that the account's second factor is locked (details: `seconds`, `minutes`). */
  TWO_FACTOR_LOCKED: 429,
  /** A mail of the e-mail log without a single-use link: there is nothing to reveal. */
  EMAIL_NO_HIDDEN_LINK: 409,
  /** A mail that was sent (or is being sent) keeps its link hidden: its recipient has it. */
  EMAIL_LINK_DELIVERED: 409,
  /** The phone input's country detection was switched on, but the environment names no lookup service. */
  COUNTRY_LOOKUP_UNCONFIGURED: 409,
  /** A company logo that is not a PNG, JPEG or SVG image (by its content). */
  COMPANY_LOGO_NOT_IMAGE: 415,
  /** A company logo over the upload limit. */
  COMPANY_LOGO_TOO_LARGE: 413,
  /** An SVG logo carrying scripts, event handlers or references to other addresses. */
  COMPANY_LOGO_UNSAFE: 422,
  /** A company colour that white text on it, or it as text on white, could not be read on (contrast below 4.5:1). */
  BRAND_COLOR_LOW_CONTRAST: 422,
  /** A customer who still has offers or invoices is not deleted. */
  CUSTOMER_IN_USE: 409,
  /** An issued document is not edited or deleted (a credit note corrects an invoice). */
  DOCUMENT_FINALISED: 409,
  /** The document is still a draft: it is issued (finalised) first. */
  DOCUMENT_NOT_FINALISED: 409,
  /** The lines' totals do not add up (no line, a total not above zero, or amounts that disagree). */
  DOCUMENT_TOTALS_INVALID: 422,
  /** The status or conversion asked for does not follow from the document's type and status. */
  DOCUMENT_STEP_INVALID: 409,
  /**
   * An invoice or cancellation needs what its e-invoice needs of the company's details (`details.missing` names the
   * gaps: name, address, VAT id or tax number, VAT id or register number, e-mail, phone, IBAN).
   */
  COMPANY_DETAILS_INCOMPLETE: 409,
  /** An invoice (not a down payment) names its service date or period: § 14 (4) no. 6 UStG. */
  SERVICE_DATE_MISSING: 422,
  /** A reverse-charge document (§ 13b UStG) needs the buyer's VAT id. */
  BUYER_VAT_ID_MISSING: 422,
  /** The company's § 19 status changed since the draft was saved: saving it again sets its VAT. */
  TAX_TREATMENT_STALE: 409,
  /** A final invoice waits until every down-payment invoice of its job is paid or cancelled. */
  DOWN_PAYMENT_OPEN: 409,
  /** A cancellation invoice repeats its invoice: lines, customer, service date and VAT treatment stay. */
  CANCELLATION_FIXED: 409,
  /** None of the company's files had a priced item for the described job. */
  NO_PRICED_ITEMS_FOUND: 422,
  /** OpenID Connect sign-in: the provider is unknown, disabled, or not offered on this sign-in page. */
  OIDC_PROVIDER_UNAVAILABLE: 404,
  /** The provider's answer could not be used: a wrong or spent state, a replayed code, a wrong ID token. */
  OIDC_SIGN_IN_FAILED: 401,
  /** The provider's discovery document could not be read (when a provider is saved or used). */
  OIDC_DISCOVERY_FAILED: 422,
  /** The provider account's e-mail domain is not among the provider's allowed domains. */
  OIDC_DOMAIN_NOT_ALLOWED: 403,
  /** No account has this (verified) address, and self sign-up is off or the address is not verified. */
  OIDC_NO_ACCOUNT: 404,
  /** An account with this address exists, but it or the provider has not verified it: sign in with the password and link. */
  OIDC_LINK_REQUIRED: 409,
  /** This provider account is already linked to another user. */
  OIDC_IDENTITY_TAKEN: 409,
  /** The only way left to sign in (no password set) is not removed. */
  IDENTITY_LAST_SIGN_IN: 409,
  /** Only an issued invoice or credit note has an e-invoice (XRechnung, Factur-X). */
  EINVOICE_ONLY_FOR_INVOICES: 409,
  /** An XRechnung needs the buyer's electronic address (an e-mail, PEPPOL-EN16931-R010); the invoice has none. */
  EINVOICE_BUYER_ADDRESS_MISSING: 409,
  /** No SMTP server is configured (SMTP_URL): a mail to a customer would never leave, so it is not queued. */
  MAIL_NOT_CONFIGURED: 409,
  /** A WhatsApp delivery without a valid `X-Hub-Signature-256` (or for no connected number): nothing is stored. */
  WHATSAPP_SIGNATURE_INVALID: 401,
  /** Meta's webhook verification named another verify token (or no subscription). */
  WHATSAPP_VERIFY_TOKEN_INVALID: 403,
  /** The company has no WhatsApp number connected yet. */
  WHATSAPP_NOT_CONNECTED: 409,
  /** The phone-number id is connected to another company already. */
  WHATSAPP_NUMBER_IN_USE: 409,
  /** Unknown numbers are to be answered from a public chat, but none of the company's public chats was chosen. */
  WHATSAPP_PUBLIC_CHAT_INVALID: 422,
  /** A new connection needs its access token and app secret. */
  WHATSAPP_SECRETS_REQUIRED: 422,
  /** Meta's Graph API did not confirm the phone-number id for the access token (details: Meta's `code`). */
  WHATSAPP_NUMBER_REFUSED: 422,
  /** Meta's Graph API could not be reached to check the connection. */
  WHATSAPP_GRAPH_UNREACHABLE: 502,
  /** Confirming a phone number on WhatsApp needs a number saved in the account first. */
  PHONE_MISSING: 409,
  /** The account's phone number is already confirmed. */
  PHONE_ALREADY_VERIFIED: 409,
  /** A user's WhatsApp chat draws on everything they may read, so it is never made public. */
  CHAT_WHATSAPP_PRIVATE: 409,
  /** A user's chat of the OpenAI-compatible API draws on everything they may read, so it is never made public. */
  CHAT_API_PRIVATE: 409,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];
