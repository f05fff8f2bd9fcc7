-- One search path (decision 032): the stock index counts every search, so the facet snapshots of
-- migrations 0002 and 0005 no longer earn the work every write to cars did for them. The car
-- generation stays (the stock index, the change log of 0007 and the page cache read it); its
-- trigger goes back to bumping it only. Each branch names only the transition tables its trigger
-- declares; the update trigger keeps both, as a car moved to another website bumps both websites.
CREATE OR REPLACE FUNCTION "car_generations_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "car_generations" ("website_id", "generation")
      SELECT DISTINCT n."website_id", 1 FROM "changed_new" n
      ORDER BY 1 -- one lock order for every statement, so two of them cannot deadlock
      ON CONFLICT ("website_id") DO UPDATE SET "generation" = "car_generations"."generation" + 1;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "car_generations" ("website_id", "generation")
      SELECT touched."website_id", 1 FROM (
        -- Not for a website being deleted (its cars go by cascade): it has no generation to keep.
        SELECT o."website_id" FROM "changed_old" o WHERE EXISTS (SELECT 1 FROM "websites" w WHERE w."id" = o."website_id")
        UNION
        SELECT n."website_id" FROM "changed_new" n
      ) touched
      ORDER BY 1
      ON CONFLICT ("website_id") DO UPDATE SET "generation" = "car_generations"."generation" + 1;
  ELSE
    INSERT INTO "car_generations" ("website_id", "generation")
      SELECT DISTINCT o."website_id", 1 FROM "changed_old" o
      WHERE EXISTS (SELECT 1 FROM "websites" w WHERE w."id" = o."website_id")
      ORDER BY 1
      ON CONFLICT ("website_id") DO UPDATE SET "generation" = "car_generations"."generation" + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP FUNCTION "search_snapshot_apply"(integer, bigint, jsonb, jsonb);
--> statement-breakpoint
DROP FUNCTION "search_snapshot_car"("cars");
--> statement-breakpoint
DROP TABLE "search_facet_snapshots" CASCADE;
