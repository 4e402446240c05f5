ALTER TABLE "delivery_events" DROP CONSTRAINT "delivery_events_user_id_users_id_fk";
