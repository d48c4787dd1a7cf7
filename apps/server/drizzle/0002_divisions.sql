CREATE TABLE "divisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "employee_divisions" (
	"user_id" uuid NOT NULL,
	"division_id" uuid NOT NULL,
	CONSTRAINT "employee_divisions_user_id_division_id_pk" PRIMARY KEY("user_id","division_id")
);
--> statement-breakpoint
ALTER TABLE "divisions" ADD CONSTRAINT "divisions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employee_divisions" ADD CONSTRAINT "employee_divisions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employee_divisions" ADD CONSTRAINT "employee_divisions_division_id_divisions_id_fk" FOREIGN KEY ("division_id") REFERENCES "public"."divisions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "divisions_company_name_unique" ON "divisions" USING btree ("company_id",lower("name"));--> statement-breakpoint
CREATE INDEX "employee_divisions_division_idx" ON "employee_divisions" USING btree ("division_id");