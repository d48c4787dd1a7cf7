CREATE TABLE "connectors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"division_id" uuid NOT NULL,
	"owner_id" uuid,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"user_name" text NOT NULL,
	"secret_sealed" text NOT NULL,
	"folder" text DEFAULT '' NOT NULL,
	"file_types" text[] DEFAULT '{}' NOT NULL,
	"interval_minutes" integer DEFAULT 60 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"sync_state" text DEFAULT 'idle' NOT NULL,
	"sync_job_id" text,
	"sync_started_at" timestamp with time zone,
	"last_sync_at" timestamp with time zone,
	"last_result" jsonb,
	"last_error" text,
	"failure_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "connector_id" uuid;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "source_path" text;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "source_version" text;--> statement-breakpoint
ALTER TABLE "connectors" ADD CONSTRAINT "connectors_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connectors" ADD CONSTRAINT "connectors_division_id_divisions_id_fk" FOREIGN KEY ("division_id") REFERENCES "public"."divisions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connectors" ADD CONSTRAINT "connectors_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "connectors_division_idx" ON "connectors" USING btree ("division_id");--> statement-breakpoint
CREATE INDEX "connectors_company_idx" ON "connectors" USING btree ("company_id");--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_connector_id_connectors_id_fk" FOREIGN KEY ("connector_id") REFERENCES "public"."connectors"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "files_connector_idx" ON "files" USING btree ("connector_id");