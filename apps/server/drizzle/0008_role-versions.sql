ALTER TABLE "roles" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- drizzle-kit does not emit triggers: every change of a role's rules, from the app or straight in the database, gives
-- the role a new version, and abilities are cached by role id and version.
CREATE FUNCTION "roles_bump_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.rules IS DISTINCT FROM OLD.rules THEN
    NEW.version := OLD.version + 1;
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "roles_version" BEFORE UPDATE ON "roles" FOR EACH ROW EXECUTE FUNCTION "roles_bump_version"();
