CREATE TABLE "car_generations" (
	"website_id" integer PRIMARY KEY NOT NULL,
	"generation" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_facet_snapshots" (
	"website_id" integer PRIMARY KEY NOT NULL,
	"generation" bigint NOT NULL,
	"filters_key" text NOT NULL,
	"counts" jsonb NOT NULL,
	"stats" jsonb NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "car_generations" ADD CONSTRAINT "car_generations_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_facet_snapshots" ADD CONSTRAINT "search_facet_snapshots_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cars_price_idx" ON "cars" USING btree ("price");--> statement-breakpoint
CREATE INDEX "cars_km_idx" ON "cars" USING btree ("km");--> statement-breakpoint
CREATE INDEX "cars_created_idx" ON "cars" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "cars_rank_idx" ON "cars" USING btree ("custom_rank","created_at");--> statement-breakpoint
CREATE INDEX "cars_subscription_price_idx" ON "cars" USING btree ("subscription_price");--> statement-breakpoint
CREATE INDEX "cars_subscription_price_desc_idx" ON "cars" USING btree ("subscription_price" DESC NULLS LAST);
--> statement-breakpoint
-- Every change to a website's cars bumps its generation in the same transaction; a facet snapshot is valid only for the generation it was counted at.
CREATE FUNCTION "car_generations_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "car_generations" ("website_id", "generation")
      SELECT DISTINCT "website_id", 1 FROM "changed_new"
      ON CONFLICT ("website_id") DO UPDATE SET "generation" = "car_generations"."generation" + 1;
  END IF;
  IF TG_OP = 'DELETE' THEN
    -- Not for a website being deleted (its cars go by cascade): it has no generation to keep.
    INSERT INTO "car_generations" ("website_id", "generation")
      SELECT DISTINCT "website_id", 1 FROM "changed_old"
      WHERE EXISTS (SELECT 1 FROM "websites" WHERE "websites"."id" = "changed_old"."website_id")
      ON CONFLICT ("website_id") DO UPDATE SET "generation" = "car_generations"."generation" + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "cars_generation_insert" AFTER INSERT ON "cars" REFERENCING NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "car_generations_bump"();
--> statement-breakpoint
CREATE TRIGGER "cars_generation_update" AFTER UPDATE ON "cars" REFERENCING NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "car_generations_bump"();
--> statement-breakpoint
CREATE TRIGGER "cars_generation_delete" AFTER DELETE ON "cars" REFERENCING OLD TABLE AS "changed_old" FOR EACH STATEMENT EXECUTE FUNCTION "car_generations_bump"();
