CREATE TABLE "esp_webhook_nonces" (
	"user_id" integer NOT NULL,
	"provider" text NOT NULL,
	"nonce" text NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "esp_webhook_nonces_user_id_provider_nonce_pk" PRIMARY KEY("user_id","provider","nonce")
);
--> statement-breakpoint
CREATE TABLE "esp_webhook_settings" (
	"user_id" integer NOT NULL,
	"provider" text NOT NULL,
	"secret_encrypted" text,
	"last_event_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "esp_webhook_settings_user_id_provider_pk" PRIMARY KEY("user_id","provider")
);
--> statement-breakpoint
ALTER TABLE "esp_webhook_nonces" ADD CONSTRAINT "esp_webhook_nonces_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "esp_webhook_settings" ADD CONSTRAINT "esp_webhook_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;