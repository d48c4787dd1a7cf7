-- drizzle-kit does not emit extensions: the passage index needs pgvector on every engine.
CREATE EXTENSION IF NOT EXISTS vector;
