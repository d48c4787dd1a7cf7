CREATE TABLE "microsoft_app" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"client_id" text NOT NULL,
	"client_secret_sealed" text NOT NULL,
	"tenant" text NOT NULL,
	"login_url" text NOT NULL,
	"graph_url" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid
);
--> statement-breakpoint
ALTER TABLE "connectors" ADD COLUMN "remote_folder_id" text;--> statement-breakpoint
ALTER TABLE "connectors" ADD COLUMN "sync_cursor" text;--> statement-breakpoint
ALTER TABLE "connectors" ADD COLUMN "source_items" jsonb;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "source_item_id" text;--> statement-breakpoint
ALTER TABLE "microsoft_app" ADD CONSTRAINT "microsoft_app_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;