ALTER TABLE "auth_sessions" ADD COLUMN "impersonator_session_id" uuid;--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "suspended_reason" text;--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD CONSTRAINT "auth_sessions_impersonator_session_id_auth_sessions_id_fk" FOREIGN KEY ("impersonator_session_id") REFERENCES "public"."auth_sessions"("id") ON DELETE cascade ON UPDATE no action;