-- A change to a website's cars used to make its facet snapshot stale, so the next visitor waited
-- for a full recount. Now the trigger that bumps the generation also applies the change to a
-- snapshot that was valid just before it: each changed car's old facet values are counted out and
-- its new ones counted in, in the same transaction, and the snapshot moves to the new generation.
-- An update that touches no counted column (description, photos' order, updated_at…) changes no
-- count. The total and the ranges' min and max are read again from the website's cars, since a
-- removed car may have held a bound.
-- The keys match SqlSearchEngine's tally (src/modules/stock/search/sql-search-engine.ts): location
-- and dealership by id, make_model as 'Make:Model', certified as 'true'/'false', no null or '' value.
CREATE FUNCTION "search_snapshot_apply"("p_website_id" integer, "p_generation" bigint, "p_old" jsonb, "p_new" jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  snapshot record;
  filters jsonb;
  changes jsonb;
  new_counts jsonb;
  new_stats jsonb;
BEGIN
  SELECT * INTO snapshot FROM "search_facet_snapshots" WHERE "website_id" = p_website_id FOR UPDATE;
  IF NOT FOUND OR snapshot."generation" <> p_generation - 1 THEN
    RETURN; -- no snapshot, or already stale: the next search recounts
  END IF;
  filters := snapshot."filters_key"::jsonb;

  -- The changed cars as the snapshot counts them (available, shown, passing the standing filters),
  -- with -1 for a car counted out and +1 for one counted in.
  SELECT coalesce(jsonb_agg(jsonb_build_object('sign', sides.sign, 'car', sides.car)), '[]'::jsonb) INTO changes FROM (
    SELECT -1 AS sign, value AS car FROM jsonb_array_elements(p_old)
    UNION ALL SELECT 1, value FROM jsonb_array_elements(p_new)
  ) sides
  WHERE sides.car->>'status' IN ('in_stock', 'coming_soon')
    AND (sides.car->>'show_on_dealer_website')::boolean
    AND (filters->>0 IS NULL OR (sides.car->>'photos_count')::int >= (filters->>0)::int)
    AND (jsonb_array_length(filters->1) = 0 OR lower(sides.car->>'city') IN (SELECT jsonb_array_elements_text(filters->1)))
    AND (jsonb_array_length(filters->2) = 0 OR lower(sides.car->>'make') IN (SELECT jsonb_array_elements_text(filters->2)));
  IF jsonb_array_length(changes) = 0 THEN
    UPDATE "search_facet_snapshots" SET "generation" = p_generation WHERE "website_id" = p_website_id;
    RETURN;
  END IF;

  -- Total and range statistics: read again from the website's cars (indexed by website and status),
  -- as a removed car may have held a minimum or maximum.
  SELECT jsonb_strip_nulls(jsonb_build_object(
      'total', count(*),
      'price_min', min(c.price), 'price_max', max(c.price),
      'subscription_price_min', min(c.subscription_price), 'subscription_price_max', max(c.subscription_price),
      'km_min', min(c.km), 'km_max', max(c.km),
      'year_min', min(c.year), 'year_max', max(c.year),
      'created_at_timestamp_min', floor(extract(epoch from min(c.created_at)) * 1000)::bigint,
      'created_at_timestamp_max', floor(extract(epoch from max(c.created_at)) * 1000)::bigint))
    INTO new_stats
    FROM "cars" c
    WHERE c.website_id = p_website_id AND c.show_on_dealer_website AND c.status IN ('in_stock', 'coming_soon')
      AND (filters->>0 IS NULL OR c.photos_count >= (filters->>0)::int)
      AND (jsonb_array_length(filters->1) = 0 OR lower(c.city) IN (SELECT jsonb_array_elements_text(filters->1)))
      AND (jsonb_array_length(filters->2) = 0 OR lower(c.make) IN (SELECT jsonb_array_elements_text(filters->2)));

  -- Facet counts: the snapshot's plus the changes', without the values no car has any more.
  SELECT coalesce(jsonb_object_agg(facet, "values"), '{}'::jsonb) INTO new_counts FROM (
    SELECT facet, jsonb_object_agg(value, n) AS "values" FROM (
      SELECT facet, value, sum(n)::int AS n FROM (
        SELECT f.key AS facet, v.key AS value, v.value::int AS n
          FROM jsonb_each(snapshot."counts") f, jsonb_each_text(f.value) v
        UNION ALL
        SELECT u.facet, u.value, (c->>'sign')::int FROM jsonb_array_elements(changes) c
          CROSS JOIN LATERAL (VALUES
            ('location_name', c->'car'->>'location_id'),
            ('car_type', c->'car'->>'car_type'),
            ('make', c->'car'->>'make'),
            ('make_model', (c->'car'->>'make') || ':' || (c->'car'->>'model')),
            ('model', c->'car'->>'model'),
            ('colour', c->'car'->>'colour'),
            ('simple_body', c->'car'->>'simple_body'),
            ('simple_transmission', c->'car'->>'simple_transmission'),
            ('simple_drive', c->'car'->>'simple_drive'),
            ('simple_fuel', c->'car'->>'simple_fuel'),
            ('dealership_name', c->'car'->>'dealership_id'),
            ('status', c->'car'->>'status'),
            ('badge', c->'car'->>'badge'),
            ('city', c->'car'->>'city'),
            ('state', c->'car'->>'state'),
            ('item_type', c->'car'->>'item_type'),
            ('tag', c->'car'->>'tag'),
            ('certified', c->'car'->>'certified')
          ) u(facet, value)
          WHERE u.value IS NOT NULL AND u.value <> ''
      ) merged
      GROUP BY facet, value
      HAVING sum(n) > 0
    ) per_value
    GROUP BY facet
  ) per_facet;

  UPDATE "search_facet_snapshots"
    SET "generation" = p_generation, "counts" = new_counts, "stats" = new_stats, "computed_at" = now()
    WHERE "website_id" = p_website_id;
END $$;
--> statement-breakpoint
-- The columns a snapshot counts, as JSON, for one car of one side of a change.
CREATE FUNCTION "search_snapshot_car"("car" "cars") RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_build_object(
    'website_id', car.website_id, 'id', car.id, 'status', car.status,
    'show_on_dealer_website', car.show_on_dealer_website, 'photos_count', car.photos_count,
    'city', car.city, 'make', car.make, 'model', car.model, 'location_id', car.location_id,
    'dealership_id', car.dealership_id, 'car_type', car.car_type, 'colour', car.colour,
    'simple_body', car.simple_body, 'simple_transmission', car.simple_transmission,
    'simple_drive', car.simple_drive, 'simple_fuel', car.simple_fuel, 'badge', car.badge,
    'state', car.state, 'item_type', car.item_type, 'tag', car.tag, 'certified', car.certified,
    'price', car.price, 'subscription_price', car.subscription_price, 'km', car.km, 'year', car.year,
    'created_at_timestamp', floor(extract(epoch from car.created_at) * 1000)::bigint)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "car_generations_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_cars jsonb := '[]'::jsonb;
  new_cars jsonb := '[]'::jsonb;
  bumped record;
BEGIN
  -- Each branch names only the transition tables its trigger declares.
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    -- Not for a website being deleted (its cars go by cascade): it has no generation to keep.
    SELECT coalesce(jsonb_agg(search_snapshot_car(o)), '[]'::jsonb) INTO old_cars FROM "changed_old" o
      WHERE EXISTS (SELECT 1 FROM "websites" WHERE "websites"."id" = o."website_id");
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT coalesce(jsonb_agg(search_snapshot_car(n)), '[]'::jsonb) INTO new_cars FROM "changed_new" n;
  END IF;
  FOR bumped IN
    INSERT INTO "car_generations" ("website_id", "generation")
      SELECT DISTINCT (car->>'website_id')::int, 1 FROM (
        SELECT value AS car FROM jsonb_array_elements(old_cars) UNION ALL SELECT value FROM jsonb_array_elements(new_cars)
      ) touched
      ORDER BY 1 -- one lock order for every statement, so two of them cannot deadlock
      ON CONFLICT ("website_id") DO UPDATE SET "generation" = "car_generations"."generation" + 1
      RETURNING "website_id", "generation"
  LOOP
    -- Only what differs between the two sides counts: an unchanged car would be counted out and in again.
    PERFORM search_snapshot_apply(bumped."website_id", bumped."generation",
      (SELECT coalesce(jsonb_agg(car), '[]'::jsonb) FROM (
        SELECT value AS car FROM jsonb_array_elements(old_cars) WHERE (value->>'website_id')::int = bumped."website_id"
        EXCEPT ALL
        SELECT value FROM jsonb_array_elements(new_cars) WHERE (value->>'website_id')::int = bumped."website_id") gone),
      (SELECT coalesce(jsonb_agg(car), '[]'::jsonb) FROM (
        SELECT value AS car FROM jsonb_array_elements(new_cars) WHERE (value->>'website_id')::int = bumped."website_id"
        EXCEPT ALL
        SELECT value FROM jsonb_array_elements(old_cars) WHERE (value->>'website_id')::int = bumped."website_id") came));
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER "cars_generation_update" ON "cars";
--> statement-breakpoint
CREATE TRIGGER "cars_generation_update" AFTER UPDATE ON "cars" REFERENCING OLD TABLE AS "changed_old" NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "car_generations_bump"();
