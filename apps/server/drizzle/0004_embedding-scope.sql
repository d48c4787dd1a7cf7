ALTER TABLE "passage_embeddings" ADD COLUMN "company_id" uuid;--> statement-breakpoint
ALTER TABLE "passage_embeddings" ADD COLUMN "file_id" uuid;--> statement-breakpoint
ALTER TABLE "passage_embeddings" ADD COLUMN "generation" integer;--> statement-breakpoint
UPDATE "passage_embeddings" e SET "company_id" = p."company_id", "file_id" = p."file_id", "generation" = p."generation" FROM "passages" p WHERE p."id" = e."passage_id";--> statement-breakpoint
ALTER TABLE "passage_embeddings" ALTER COLUMN "company_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "passage_embeddings" ALTER COLUMN "file_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "passage_embeddings" ALTER COLUMN "generation" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "passage_embeddings_scope_idx" ON "passage_embeddings" USING btree ("index_id","company_id");
