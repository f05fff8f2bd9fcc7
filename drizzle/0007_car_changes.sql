CREATE TABLE "car_changes" (
	"website_id" integer NOT NULL,
	"generation" bigint NOT NULL,
	"car_id" integer NOT NULL,
	CONSTRAINT "car_changes_website_id_generation_car_id_pk" PRIMARY KEY("website_id","generation","car_id")
);
--> statement-breakpoint
ALTER TABLE "car_changes" ADD CONSTRAINT "car_changes_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Runs after cars_generation_* (triggers of an event fire in name order), so each touched website's
-- generation is already the one this statement made.
CREATE FUNCTION "car_changes_log"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched int[];
BEGIN
  -- Each branch names only the transition tables its trigger declares.
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO "car_changes" ("website_id", "generation", "car_id")
      SELECT o."website_id", g."generation", o."id" FROM "changed_old" o JOIN "car_generations" g ON g."website_id" = o."website_id"
      -- Not for a website being deleted (its cars go by cascade), as car_generations_bump.
      WHERE EXISTS (SELECT 1 FROM "websites" w WHERE w."id" = o."website_id")
      ON CONFLICT DO NOTHING;
    SELECT array_agg(DISTINCT "website_id") INTO touched FROM "changed_old";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "car_changes" ("website_id", "generation", "car_id")
      SELECT n."website_id", g."generation", n."id" FROM "changed_new" n JOIN "car_generations" g ON g."website_id" = n."website_id"
      ON CONFLICT DO NOTHING;
    SELECT array_agg(DISTINCT "website_id") INTO touched FROM (
      SELECT "website_id" FROM "changed_new" UNION SELECT unnest(touched)) t;
  END IF;
  DELETE FROM "car_changes" c USING "car_generations" g
    WHERE g."website_id" = c."website_id" AND c."website_id" = ANY(touched) AND c."generation" <= g."generation" - 20;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "cars_search_changes_insert" AFTER INSERT ON "cars" REFERENCING NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "car_changes_log"();
--> statement-breakpoint
CREATE TRIGGER "cars_search_changes_update" AFTER UPDATE ON "cars" REFERENCING OLD TABLE AS "changed_old" NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "car_changes_log"();
--> statement-breakpoint
CREATE TRIGGER "cars_search_changes_delete" AFTER DELETE ON "cars" REFERENCING OLD TABLE AS "changed_old" FOR EACH STATEMENT EXECUTE FUNCTION "car_changes_log"();
