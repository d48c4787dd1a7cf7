ALTER TABLE "company_details" ADD COLUMN "small_business" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "kind" text DEFAULT 'private' NOT NULL;--> statement-breakpoint
ALTER TABLE "sales_documents" ADD COLUMN "invoice_kind" text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
ALTER TABLE "sales_documents" ADD COLUMN "tax_treatment" text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
ALTER TABLE "sales_documents" ADD COLUMN "service_date" date;--> statement-breakpoint
ALTER TABLE "sales_documents" ADD COLUMN "service_end_date" date;--> statement-breakpoint
ALTER TABLE "sales_documents" ADD COLUMN "valid_until" date;--> statement-breakpoint
ALTER TABLE "sales_documents" ADD COLUMN "property_service" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "sales_documents" ADD COLUMN "cash_discount" jsonb;--> statement-breakpoint
ALTER TABLE "sales_documents" ADD COLUMN "deductions" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sales_documents" ADD COLUMN "prepaid_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "sales_documents_source_idx" ON "sales_documents" USING btree ("source_document_id");--> statement-breakpoint
-- Customers with a VAT id are businesses; the others are taken as private customers (the safe reading: they get the
-- two-year retention notice of § 14 (4) no. 9 UStG), which the data manager can change.
UPDATE "customers" SET "kind" = 'business' WHERE "vat_id" <> '';--> statement-breakpoint
-- Issuing no longer means sending: a document that no mail took to the customer is "issued".
UPDATE "sales_documents" SET "status" = 'issued' WHERE "status" = 'sent' AND "sent_at" IS NULL;--> statement-breakpoint
-- An offer that an issued order confirmation or invoice was made from is accepted (no longer an open offer).
UPDATE "sales_documents" AS o SET "status" = 'accepted'
  WHERE o."type" = 'offer' AND o."status" IN ('issued', 'sent')
    AND EXISTS (SELECT 1 FROM "sales_documents" d WHERE d."source_document_id" = o."id" AND d."status" <> 'draft');--> statement-breakpoint
-- An invoice whose credit note is issued over its whole amount is cancelled (the credit note is its cancellation).
UPDATE "sales_documents" AS i SET "status" = 'cancelled'
  WHERE i."type" = 'invoice' AND i."status" IN ('issued', 'sent', 'paid')
    AND EXISTS (SELECT 1 FROM "sales_documents" c WHERE c."source_document_id" = i."id" AND c."type" = 'creditNote'
      AND c."status" <> 'draft' AND c."gross_cents" = i."gross_cents");
