CREATE TABLE "domain_dns_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"domain_id" integer NOT NULL,
	"record" text NOT NULL,
	"before" text,
	"after" text,
	"status_before" text,
	"status_after" text,
	"summary" text NOT NULL,
	"observed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "domain_notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"domain_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "drop_alerts" (
	"user_id" integer NOT NULL,
	"domain_id" integer NOT NULL,
	"drop_id" text NOT NULL,
	"raised_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "drop_alerts_domain_id_drop_id_pk" PRIMARY KEY("domain_id","drop_id")
);
--> statement-breakpoint
CREATE TABLE "integration_errors" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"integration_id" integer NOT NULL,
	"provider" text NOT NULL,
	"error" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "domain_dns_changes" ADD CONSTRAINT "domain_dns_changes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domain_dns_changes" ADD CONSTRAINT "domain_dns_changes_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domain_notes" ADD CONSTRAINT "domain_notes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domain_notes" ADD CONSTRAINT "domain_notes_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drop_alerts" ADD CONSTRAINT "drop_alerts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drop_alerts" ADD CONSTRAINT "drop_alerts_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_errors" ADD CONSTRAINT "integration_errors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_errors" ADD CONSTRAINT "integration_errors_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "domain_dns_changes_domain_idx" ON "domain_dns_changes" USING btree ("domain_id","observed_at");--> statement-breakpoint
CREATE INDEX "domain_dns_changes_user_idx" ON "domain_dns_changes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "domain_notes_domain_idx" ON "domain_notes" USING btree ("domain_id","at");--> statement-breakpoint
CREATE INDEX "domain_notes_user_idx" ON "domain_notes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "drop_alerts_user_idx" ON "drop_alerts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "integration_errors_user_idx" ON "integration_errors" USING btree ("user_id","at");--> statement-breakpoint
CREATE INDEX "integration_errors_integration_idx" ON "integration_errors" USING btree ("integration_id");--> statement-breakpoint
-- The timeline's integration events (ADR 035): every change of an integration's last error, a new
-- error or a recovery (null), whoever writes it (the ESP sync, the Postmaster import, an operator).
CREATE FUNCTION record_integration_error() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO integration_errors (user_id, integration_id, provider, error) VALUES (NEW.user_id, NEW.id, NEW.provider, NEW.last_error);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER integrations_record_error AFTER UPDATE OF last_error ON integrations
  FOR EACH ROW WHEN (OLD.last_error IS DISTINCT FROM NEW.last_error) EXECUTE FUNCTION record_integration_error();
