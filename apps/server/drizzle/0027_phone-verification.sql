CREATE TABLE "phone_verifications" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"phone_digits" text NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- No number saved before this migration counts as confirmed: any of them may have been typed in by someone else (an
-- operator viewing as the user, a data manager). Their owners are told so on WhatsApp and in their profile, and
-- confirm them there once.
ALTER TABLE "users" ADD COLUMN "phone_verified_digits" text;--> statement-breakpoint
ALTER TABLE "whatsapp_connections" ADD COLUMN "display_phone_number" text;--> statement-breakpoint
ALTER TABLE "phone_verifications" ADD CONSTRAINT "phone_verifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;