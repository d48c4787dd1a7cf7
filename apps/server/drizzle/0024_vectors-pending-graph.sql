ALTER TABLE "passage_embeddings" ADD COLUMN "in_graph" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "passage_embeddings_pending_idx" ON "passage_embeddings" USING btree ("index_id","company_id") WHERE not "passage_embeddings"."in_graph";--> statement-breakpoint
-- The HNSW graphs now hold only rows with "in_graph" set (moved in by the embedding.graph job, for large companies).
-- The old graphs held every row: they go, and the start-up recreates each live index's graph with the new predicate,
-- empty; the job then fills it for the companies that need it. Until then their searches scan the pending rows
-- exactly, which finds the same passages.
DO $$
DECLARE
  old record;
BEGIN
  FOR old IN
    SELECT indexname FROM pg_indexes
    WHERE schemaname = current_schema() AND tablename = 'passage_embeddings'
      AND indexname LIKE 'passage\_embeddings\_hnsw\_%'
  LOOP
    EXECUTE format('DROP INDEX %I', old.indexname);
  END LOOP;
END $$;
