CREATE TABLE "company_details" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"website" text,
	"street" text,
	"postal_code" text,
	"city" text,
	"country" text NOT NULL,
	"phone" text,
	"email" text,
	"vat_id" text,
	"tax_number" text,
	"standard_tax_rate" numeric(5, 2) NOT NULL,
	"register_number" text,
	"registry_court" text,
	"managing_director" text,
	"iban" text,
	"bic" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "company_details" ADD CONSTRAINT "company_details_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;