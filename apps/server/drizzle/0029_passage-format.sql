-- The format a file's published passages were written in: existing files are format 0 and are reprocessed in the
-- background by knowledge.reformat (tables with their column names, compound parts in the index).
ALTER TABLE "files" ADD COLUMN "passage_format" integer DEFAULT 0 NOT NULL;