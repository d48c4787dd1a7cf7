CREATE TABLE "term_frequencies" (
	"company_id" uuid NOT NULL,
	"lexeme" text NOT NULL,
	"passages" integer NOT NULL,
	CONSTRAINT "term_frequencies_company_id_lexeme_pk" PRIMARY KEY("company_id","lexeme")
);
--> statement-breakpoint
CREATE TABLE "term_frequency_counts" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"passages" integer NOT NULL,
	"counted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "term_frequencies" ADD CONSTRAINT "term_frequencies_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "term_frequency_counts" ADD CONSTRAINT "term_frequency_counts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;