ALTER TABLE "alert_items" DROP CONSTRAINT "alert_items_car_id_cars_id_fk";
--> statement-breakpoint
ALTER TABLE "alert_items" DROP CONSTRAINT "alert_items_saved_search_id_saved_searches_id_fk";
--> statement-breakpoint
-- What the two dropped keys' cascades did, once per deleting statement instead of a check per
-- item written: a deleted car's or saved search's items go with it.
CREATE FUNCTION "alert_items_of_deleted_cars"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "alert_items" WHERE "car_id" IN (SELECT "id" FROM "deleted_cars");
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "cars_alert_items" AFTER DELETE ON "cars" REFERENCING OLD TABLE AS "deleted_cars" FOR EACH STATEMENT EXECUTE FUNCTION "alert_items_of_deleted_cars"();
--> statement-breakpoint
-- By customer first: the items' unique (customer_id, source) index finds a visitor's items.
CREATE FUNCTION "alert_items_of_deleted_searches"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "alert_items" i USING "deleted_searches" d WHERE i."customer_id" = d."customer_id" AND i."saved_search_id" = d."id";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "saved_searches_alert_items" AFTER DELETE ON "saved_searches" REFERENCING OLD TABLE AS "deleted_searches" FOR EACH STATEMENT EXECUTE FUNCTION "alert_items_of_deleted_searches"();
