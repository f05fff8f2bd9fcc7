CREATE TABLE "website_generations" (
	"website_id" integer PRIMARY KEY NOT NULL,
	"generation" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "website_generations" ADD CONSTRAINT "website_generations_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- One generation per website for everything its pages show apart from its cars (car_generations):
-- bumped by these triggers in the same transaction as the change, whoever writes it.
CREATE FUNCTION "website_generations_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched integer[] := '{}';
BEGIN
  -- Each branch names only the transition tables its trigger declares.
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT touched || coalesce(array_agg(o."website_id"), '{}') INTO touched FROM "changed_old" o;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT touched || coalesce(array_agg(n."website_id"), '{}') INTO touched FROM "changed_new" n;
  END IF;
  -- The join skips a website being deleted (its rows go by cascade): it has no generation to keep.
  INSERT INTO "website_generations" ("website_id", "generation")
    SELECT DISTINCT w."id", 1 FROM "websites" w WHERE w."id" = ANY (touched)
    ORDER BY 1 -- one lock order for every statement, so two of them cannot deadlock
    ON CONFLICT ("website_id") DO UPDATE SET "generation" = "website_generations"."generation" + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "website_domains_website_generation_insert" AFTER INSERT ON "website_domains" REFERENCING NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "website_generations_bump"();
--> statement-breakpoint
CREATE TRIGGER "website_domains_website_generation_update" AFTER UPDATE ON "website_domains" REFERENCING OLD TABLE AS "changed_old" NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "website_generations_bump"();
--> statement-breakpoint
CREATE TRIGGER "website_domains_website_generation_delete" AFTER DELETE ON "website_domains" REFERENCING OLD TABLE AS "changed_old" FOR EACH STATEMENT EXECUTE FUNCTION "website_generations_bump"();
--> statement-breakpoint
CREATE TRIGGER "dealerships_website_generation_insert" AFTER INSERT ON "dealerships" REFERENCING NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "website_generations_bump"();
--> statement-breakpoint
CREATE TRIGGER "dealerships_website_generation_update" AFTER UPDATE ON "dealerships" REFERENCING OLD TABLE AS "changed_old" NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "website_generations_bump"();
--> statement-breakpoint
CREATE TRIGGER "dealerships_website_generation_delete" AFTER DELETE ON "dealerships" REFERENCING OLD TABLE AS "changed_old" FOR EACH STATEMENT EXECUTE FUNCTION "website_generations_bump"();
--> statement-breakpoint
CREATE TRIGGER "navigation_items_website_generation_insert" AFTER INSERT ON "navigation_items" REFERENCING NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "website_generations_bump"();
--> statement-breakpoint
CREATE TRIGGER "navigation_items_website_generation_update" AFTER UPDATE ON "navigation_items" REFERENCING OLD TABLE AS "changed_old" NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "website_generations_bump"();
--> statement-breakpoint
CREATE TRIGGER "navigation_items_website_generation_delete" AFTER DELETE ON "navigation_items" REFERENCING OLD TABLE AS "changed_old" FOR EACH STATEMENT EXECUTE FUNCTION "website_generations_bump"();
--> statement-breakpoint
CREATE TRIGGER "search_pages_website_generation_insert" AFTER INSERT ON "search_pages" REFERENCING NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "website_generations_bump"();
--> statement-breakpoint
CREATE TRIGGER "search_pages_website_generation_update" AFTER UPDATE ON "search_pages" REFERENCING OLD TABLE AS "changed_old" NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "website_generations_bump"();
--> statement-breakpoint
CREATE TRIGGER "search_pages_website_generation_delete" AFTER DELETE ON "search_pages" REFERENCING OLD TABLE AS "changed_old" FOR EACH STATEMENT EXECUTE FUNCTION "website_generations_bump"();
--> statement-breakpoint
CREATE TRIGGER "locations_website_generation_insert" AFTER INSERT ON "locations" REFERENCING NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "website_generations_bump"();
--> statement-breakpoint
CREATE TRIGGER "locations_website_generation_update" AFTER UPDATE ON "locations" REFERENCING OLD TABLE AS "changed_old" NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "website_generations_bump"();
--> statement-breakpoint
CREATE TRIGGER "locations_website_generation_delete" AFTER DELETE ON "locations" REFERENCING OLD TABLE AS "changed_old" FOR EACH STATEMENT EXECUTE FUNCTION "website_generations_bump"();
--> statement-breakpoint
CREATE TRIGGER "special_hours_website_generation_insert" AFTER INSERT ON "special_hours" REFERENCING NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "website_generations_bump"();
--> statement-breakpoint
CREATE TRIGGER "special_hours_website_generation_update" AFTER UPDATE ON "special_hours" REFERENCING OLD TABLE AS "changed_old" NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "website_generations_bump"();
--> statement-breakpoint
CREATE TRIGGER "special_hours_website_generation_delete" AFTER DELETE ON "special_hours" REFERENCING OLD TABLE AS "changed_old" FOR EACH STATEMENT EXECUTE FUNCTION "website_generations_bump"();
--> statement-breakpoint
CREATE TRIGGER "content_pages_website_generation_insert" AFTER INSERT ON "content_pages" REFERENCING NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "website_generations_bump"();
--> statement-breakpoint
CREATE TRIGGER "content_pages_website_generation_update" AFTER UPDATE ON "content_pages" REFERENCING OLD TABLE AS "changed_old" NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "website_generations_bump"();
--> statement-breakpoint
CREATE TRIGGER "content_pages_website_generation_delete" AFTER DELETE ON "content_pages" REFERENCING OLD TABLE AS "changed_old" FOR EACH STATEMENT EXECUTE FUNCTION "website_generations_bump"();
--> statement-breakpoint
-- The website row itself: any column but the stock counters (stock changes bump car_generations).
CREATE FUNCTION "website_generations_bump_website"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "website_generations" ("website_id", "generation") VALUES (NEW."id", 1)
    ON CONFLICT ("website_id") DO UPDATE SET "generation" = "website_generations"."generation" + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "websites_website_generation_update" AFTER UPDATE ON "websites" FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'stock_version' - 'updated_at') IS DISTINCT FROM (to_jsonb(NEW) - 'stock_version' - 'updated_at'))
  EXECUTE FUNCTION "website_generations_bump_website"();
--> statement-breakpoint
-- Manufacturers are shared (their display names appear on every website that sells the make):
-- a change to one is a change to every website.
CREATE FUNCTION "website_generations_bump_all"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "website_generations" ("website_id", "generation")
    SELECT "id", 1 FROM "websites" ORDER BY 1
    ON CONFLICT ("website_id") DO UPDATE SET "generation" = "website_generations"."generation" + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "manufacturers_website_generation" AFTER INSERT OR UPDATE OR DELETE ON "manufacturers" FOR EACH STATEMENT EXECUTE FUNCTION "website_generations_bump_all"();
