CREATE TABLE "alert_counts" (
	"website_id" integer NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"items" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_matches" (
	"website_id" integer NOT NULL,
	"path" text NOT NULL,
	"query" text NOT NULL,
	"car_id" integer NOT NULL,
	"generation" bigint NOT NULL,
	CONSTRAINT "alert_matches_website_id_path_query_car_id_pk" PRIMARY KEY("website_id","path","query","car_id")
);
--> statement-breakpoint
ALTER TABLE "alert_subscriptions" ADD COLUMN "new_stock_through" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_counts" ADD CONSTRAINT "alert_counts_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_counts_website_idx" ON "alert_counts" USING btree ("website_id","sent_at");--> statement-breakpoint
CREATE INDEX "saved_searches_website_search_idx" ON "saved_searches" USING btree ("website_id","path","query");--> statement-breakpoint
-- The figures of what was sent before this migration, from the items sent then.
INSERT INTO "alert_counts" ("website_id", "sent_at", "kind", "items")
SELECT i."website_id", d."created_at", i."kind", count(*) FROM "alert_items" i JOIN "lead_deliveries" d ON d."id" = i."delivery_id" GROUP BY 1, 2, 3;
--> statement-breakpoint
-- A deleted car's matches go with it, as its items do (migration 0024).
CREATE OR REPLACE FUNCTION "alert_items_of_deleted_cars"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "alert_items" WHERE "car_id" IN (SELECT "id" FROM "deleted_cars");
  DELETE FROM "alert_matches" m USING "deleted_cars" d WHERE m."website_id" = d."website_id" AND m."car_id" = d."id";
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A deleted website's matches go with it: alert_matches has no key to websites (a check per match written).
CREATE FUNCTION "alert_matches_of_deleted_websites"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "alert_matches" WHERE "website_id" IN (SELECT "id" FROM "deleted_websites");
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "websites_alert_matches" AFTER DELETE ON "websites" REFERENCING OLD TABLE AS "deleted_websites" FOR EACH STATEMENT EXECUTE FUNCTION "alert_matches_of_deleted_websites"();
