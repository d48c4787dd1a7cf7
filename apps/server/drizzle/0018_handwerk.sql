CREATE TABLE "customers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"street" text DEFAULT '' NOT NULL,
	"postal_code" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"country" text NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"vat_id" text DEFAULT '' NOT NULL,
	"buyer_reference" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_number_series" (
	"company_id" uuid NOT NULL,
	"type" text NOT NULL,
	"year" integer NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "document_number_series_company_id_type_year_pk" PRIMARY KEY("company_id","type","year")
);
--> statement-breakpoint
CREATE TABLE "sales_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"number" text,
	"customer_id" uuid NOT NULL,
	"language" text NOT NULL,
	"issue_date" date NOT NULL,
	"due_date" date,
	"title" text DEFAULT '' NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"lines" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"net_cents" bigint DEFAULT 0 NOT NULL,
	"tax_cents" bigint DEFAULT 0 NOT NULL,
	"gross_cents" bigint DEFAULT 0 NOT NULL,
	"buyer" jsonb,
	"seller" jsonb,
	"source_document_id" uuid,
	"created_by" uuid,
	"finalised_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_number_series" ADD CONSTRAINT "document_number_series_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_documents" ADD CONSTRAINT "sales_documents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_documents" ADD CONSTRAINT "sales_documents_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_documents" ADD CONSTRAINT "sales_documents_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customers_company_idx" ON "customers" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "sales_documents_company_idx" ON "sales_documents" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "sales_documents_customer_idx" ON "sales_documents" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sales_documents_number_idx" ON "sales_documents" USING btree ("company_id","number");--> statement-breakpoint
-- The new subjects' default rules, appended to the stored roles (see permissions/default-roles.ts).
UPDATE "roles" SET "rules" = "rules" || '[{"action":"manage","subject":["Customer","SalesDocument"],"inverted":true,"reason":"A company''s customers, offers and invoices are its own business."}]'::jsonb
  WHERE "kind" = 'Administrator' AND NOT "rules" @> '[{"subject":["Customer","SalesDocument"]}]'::jsonb;--> statement-breakpoint
UPDATE "roles" SET "rules" = "rules" || '[{"action":"manage","subject":["Customer","SalesDocument"],"conditions":{"companyId":"${user.companyId}"}}]'::jsonb
  WHERE "kind" = 'DataManager' AND NOT "rules" @> '[{"subject":["Customer","SalesDocument"]}]'::jsonb;
