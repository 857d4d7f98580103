/// The PostgreSQL schema: the same tables, columns and checks as the SQLite one (SQLiteStorage's
/// `SQLiteMigrations`), in PostgreSQL's dialect.
///
/// Migrations are named and forward-only: a released one is never edited, a change is a new one.
/// Times are seconds since 1970 (UTC) as `double precision`, like the SQLite columns, so both
/// stores compare the same numbers; `to_timestamp(sent_at)` shows one as a date.
enum PostgresMigrations {
    struct Migration {
        let name: String
        let statements: [String]
    }

    /// Names the `pg_advisory_xact_lock` held while migrating (with the schema's name).
    static let lockName = "phonelogin-migrations:"

    static let e164 = #"~ '^\+1[2-9][0-9]{2}[2-9][0-9]{6}$'"#

    static let all = [
        Migration(
            name: "v1-sign-in",
            statements: [
                """
                CREATE TABLE users (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    phone text NOT NULL UNIQUE CHECK (phone \(e164)),
                    created_at double precision NOT NULL,
                    last_sign_in_at double precision NOT NULL
                )
                """,
                """
                CREATE TABLE verifications (
                    phone text PRIMARY KEY CHECK (phone \(e164)),
                    code_digest bytea NOT NULL CHECK (length(code_digest) = 32),
                    sent_at double precision NOT NULL,
                    expires_at double precision NOT NULL CHECK (expires_at > sent_at),
                    failed_attempts integer NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0)
                )
                """,
                """
                CREATE TABLE sessions (
                    key bytea PRIMARY KEY CHECK (length(key) = 32),
                    pending_phone text CHECK (pending_phone \(e164)),
                    user_id bigint REFERENCES users(id) ON DELETE CASCADE,
                    created_at double precision NOT NULL,
                    last_seen_at double precision NOT NULL,
                    expires_at double precision NOT NULL,
                    absolute_expires_at double precision NOT NULL,
                    CHECK ((pending_phone IS NULL) <> (user_id IS NULL))
                )
                """,
                "CREATE INDEX sessions_by_expiry ON sessions (expires_at)",
                "CREATE INDEX sessions_by_user ON sessions (user_id)",
                "CREATE INDEX verifications_by_expiry ON verifications (expires_at)",
            ]),
        Migration(
            name: "v2-send-and-failure-limits",
            statements: [
                """
                CREATE TABLE code_sends (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    phone text NOT NULL,
                    client text,
                    sent_at double precision NOT NULL
                )
                """,
                "CREATE INDEX code_sends_by_phone ON code_sends (phone, sent_at)",
                "CREATE INDEX code_sends_by_client ON code_sends (client, sent_at)",
                """
                CREATE TABLE failed_checks (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    phone text NOT NULL,
                    failed_at double precision NOT NULL
                )
                """,
                "CREATE INDEX failed_checks_by_phone ON failed_checks (phone, failed_at)",
            ]),
        Migration(
            name: "wallet-v1",
            statements: [
                """
                CREATE TABLE wallet_profiles (
                    user_id bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                    display_name text NOT NULL CHECK (char_length(display_name) BETWEEN 1 AND 40)
                )
                """,
                """
                CREATE TABLE accounts (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 40),
                    balance_cents bigint NOT NULL DEFAULT 0
                        CHECK (balance_cents >= 0 AND balance_cents <= 100000000000000),
                    created_at double precision NOT NULL
                )
                """,
                // Names are unique per person regardless of case, like SQLite's COLLATE NOCASE.
                "CREATE UNIQUE INDEX accounts_name_per_user ON accounts (user_id, lower(name))",
                """
                CREATE TABLE operations (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    account_id bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                    kind text NOT NULL CHECK (kind IN ('deposit', 'withdrawal', 'transfer_in', 'transfer_out')),
                    amount_cents bigint NOT NULL CHECK (amount_cents > 0),
                    balance_after_cents bigint NOT NULL CHECK (balance_after_cents >= 0),
                    counterparty_account_id bigint,
                    created_at double precision NOT NULL
                )
                """,
                "CREATE INDEX operations_by_account ON operations (account_id, id)",
                """
                CREATE TABLE wallet_operation_keys (
                    user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    key text NOT NULL,
                    action text NOT NULL,
                    account_id bigint,
                    operation_id bigint,
                    created_at double precision NOT NULL,
                    PRIMARY KEY (user_id, key)
                )
                """,
                "CREATE INDEX wallet_operation_keys_by_age ON wallet_operation_keys (created_at)",
            ]),
        Migration(
            name: "v3-spend-and-bound-codes",
            statements: [
                "CREATE INDEX code_sends_by_time ON code_sends (sent_at)",
                "ALTER TABLE failed_checks ADD COLUMN client text",
                "CREATE INDEX failed_checks_by_client ON failed_checks (client, failed_at)",
                "ALTER TABLE verifications ADD COLUMN holder bytea CHECK (holder IS NULL OR length(holder) = 32)",
            ]),
        Migration(
            name: "devices-v1",
            statements: [
                """
                CREATE TABLE devices (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    key bytea NOT NULL UNIQUE CHECK (length(key) = 32),
                    user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    created_at double precision NOT NULL,
                    last_used_at double precision NOT NULL,
                    expires_at double precision NOT NULL CHECK (expires_at > created_at),
                    user_agent text CHECK (length(user_agent) <= 512),
                    session_key bytea CHECK (session_key IS NULL OR length(session_key) = 32)
                )
                """,
                "CREATE INDEX devices_by_user ON devices (user_id)",
                "CREATE INDEX devices_by_expiry ON devices (expires_at)",
                "ALTER TABLE sessions ADD COLUMN user_agent text CHECK (length(user_agent) <= 512)",
                "ALTER TABLE sessions ADD COLUMN api boolean NOT NULL DEFAULT false",
            ]),
        Migration(
            name: "wallet-v2-key-fingerprints",
            statements: [
                """
                ALTER TABLE wallet_operation_keys ADD COLUMN request_fingerprint bytea
                    CHECK (request_fingerprint IS NULL OR length(request_fingerprint) = 32)
                """
            ]),
        Migration(
            name: "v3-sign-in-starts",
            statements: [
                """
                CREATE TABLE sign_in_starts (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    client text NOT NULL,
                    started_at double precision NOT NULL
                )
                """,
                "CREATE INDEX sign_in_starts_by_client ON sign_in_starts (client, started_at)",
            ]),
        Migration(
            name: "v4-last-wrong-code",
            statements: [
                """
                ALTER TABLE verifications ADD COLUMN last_wrong_digest bytea
                    CHECK (last_wrong_digest IS NULL OR length(last_wrong_digest) = 32)
                """
            ]),
        Migration(
            name: "v5-delivery",
            statements: [
                "ALTER TABLE code_sends ADD COLUMN channel text NOT NULL DEFAULT 'sms' CHECK (channel IN ('sms', 'voice'))",
                "ALTER TABLE code_sends ADD COLUMN cost integer NOT NULL DEFAULT 1 CHECK (cost BETWEEN 1 AND 1000)",
                "ALTER TABLE code_sends ADD COLUMN reference text CHECK (reference ~ '^[0-9a-f]{32}$')",
                """
                ALTER TABLE code_sends ADD COLUMN provider_id text
                    CHECK (provider_id ~ '^[A-Za-z0-9_-]{1,64}$')
                """,
                """
                ALTER TABLE code_sends ADD COLUMN status text NOT NULL DEFAULT 'sending'
                    CHECK (status IN ('sending', 'queued', 'sent', 'delivered', 'undelivered', 'failed'))
                """,
                "ALTER TABLE code_sends ADD COLUMN status_at double precision",
                "ALTER TABLE code_sends ADD COLUMN verified_at double precision",
                "ALTER TABLE code_sends ADD COLUMN error_code text CHECK (error_code ~ '^[A-Za-z0-9_-]{1,16}$')",
                "CREATE UNIQUE INDEX code_sends_by_reference ON code_sends (reference)",
                "DROP INDEX code_sends_by_time",
                "CREATE INDEX code_sends_by_time ON code_sends (sent_at, cost)",
                "CREATE INDEX verifications_by_holder ON verifications (holder)",
                """
                ALTER TABLE verifications ADD COLUMN send_reference text
                    CHECK (send_reference ~ '^[0-9a-f]{32}$')
                """,
            ]),
        Migration(
            name: "v7-passkeys",
            statements: [
                """
                ALTER TABLE users ADD COLUMN passkey_handle bytea
                    CHECK (passkey_handle IS NULL OR length(passkey_handle) = 32)
                """,
                "ALTER TABLE users ADD COLUMN passkey_offer_dismissed_at double precision",
                "CREATE UNIQUE INDEX users_by_passkey_handle ON users (passkey_handle)",
                """
                CREATE TABLE passkeys (
                    id bigserial PRIMARY KEY,
                    credential_id bytea NOT NULL UNIQUE CHECK (length(credential_id) BETWEEN 1 AND 1023),
                    user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    public_key bytea NOT NULL CHECK (length(public_key) BETWEEN 1 AND 2048),
                    sign_count bigint NOT NULL CHECK (sign_count BETWEEN 0 AND 4294967295),
                    aaguid bytea NOT NULL CHECK (length(aaguid) = 16),
                    name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 64),
                    created_at double precision NOT NULL,
                    last_used_at double precision,
                    flagged_at double precision
                )
                """,
                "CREATE INDEX passkeys_by_user ON passkeys (user_id)",
                """
                CREATE TABLE passkey_challenges (
                    key bytea PRIMARY KEY CHECK (length(key) = 32),
                    purpose text NOT NULL CHECK (purpose IN ('register', 'sign_in')),
                    challenge bytea NOT NULL CHECK (length(challenge) = 32),
                    user_id bigint REFERENCES users(id) ON DELETE CASCADE,
                    client text,
                    created_at double precision NOT NULL,
                    expires_at double precision NOT NULL
                )
                """,
                "CREATE INDEX passkey_challenges_by_expiry ON passkey_challenges (expires_at)",
                "CREATE INDEX passkey_challenges_by_client ON passkey_challenges (client, created_at)",
            ]),
        Migration(
            name: "v8-oidc",
            statements: [
                """
                CREATE TABLE oidc_grants (
                    family bytea PRIMARY KEY CHECK (length(family) = 16),
                    client_id text NOT NULL CHECK (char_length(client_id) BETWEEN 1 AND 64),
                    user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    created_at double precision NOT NULL,
                    revoked_at double precision
                )
                """,
                "CREATE INDEX oidc_grants_by_user ON oidc_grants (user_id, client_id)",
                """
                CREATE TABLE oidc_codes (
                    hash bytea PRIMARY KEY CHECK (length(hash) = 32),
                    family bytea NOT NULL REFERENCES oidc_grants(family) ON DELETE CASCADE,
                    redirect_uri text NOT NULL CHECK (char_length(redirect_uri) BETWEEN 1 AND 2048),
                    code_challenge text CHECK (code_challenge IS NULL OR char_length(code_challenge) = 43),
                    nonce text CHECK (nonce IS NULL OR char_length(nonce) BETWEEN 1 AND 512),
                    scope text NOT NULL CHECK (char_length(scope) <= 64),
                    auth_time double precision NOT NULL,
                    method text NOT NULL CHECK (method IN ('sms', 'passkey', 'device')),
                    expires_at double precision NOT NULL,
                    used_at double precision
                )
                """,
                "CREATE INDEX oidc_codes_by_expiry ON oidc_codes (expires_at)",
                """
                CREATE TABLE oidc_refresh_tokens (
                    hash bytea PRIMARY KEY CHECK (length(hash) = 32),
                    family bytea NOT NULL REFERENCES oidc_grants(family) ON DELETE CASCADE,
                    scope text NOT NULL CHECK (char_length(scope) <= 64),
                    auth_time double precision NOT NULL,
                    method text NOT NULL CHECK (method IN ('sms', 'passkey', 'device')),
                    expires_at double precision NOT NULL,
                    used_at double precision
                )
                """,
                "CREATE INDEX oidc_refresh_tokens_by_expiry ON oidc_refresh_tokens (expires_at)",
                "CREATE INDEX oidc_refresh_tokens_by_family ON oidc_refresh_tokens (family)",
                """
                ALTER TABLE sessions ADD COLUMN method text NOT NULL DEFAULT 'sms'
                    CHECK (method IN ('sms', 'passkey', 'device'))
                """,
                """
                CREATE TABLE oidc_consents (
                    user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    client_id text NOT NULL CHECK (char_length(client_id) BETWEEN 1 AND 64),
                    scope text NOT NULL CHECK (char_length(scope) <= 64),
                    granted_at double precision NOT NULL,
                    PRIMARY KEY (user_id, client_id)
                )
                """,
            ]),
        // When the session's person last proved they hold the number or a passkey (the same
        // column as SQLite's v9).
        Migration(name: "v9-proved-at", statements: ["ALTER TABLE sessions ADD COLUMN proved_at double precision"]),
        // Each change of an account's number (SQLite's v10).
        Migration(
            name: "v10-number-changes",
            statements: [
                """
                CREATE TABLE number_changes (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    old_phone text NOT NULL CHECK (old_phone \(e164)),
                    new_phone text NOT NULL CHECK (new_phone \(e164) AND new_phone <> old_phone),
                    changed_at double precision NOT NULL
                )
                """,
                "CREATE INDEX number_changes_by_user ON number_changes (user_id, changed_at)",
            ]),
        // Whether a sign-in's code was read out on a call (SQLite's v11).
        Migration(
            name: "v11-by-call",
            statements: ["sessions", "oidc_codes", "oidc_refresh_tokens"].map {
                "ALTER TABLE \($0) ADD COLUMN by_call boolean NOT NULL DEFAULT false"
            }),
        // Recovery codes (SQLite's v12).
        Migration(
            name: "v12-recovery-codes",
            statements: [
                """
                CREATE TABLE recovery_codes (
                    user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    digest bytea NOT NULL CHECK (length(digest) = 32),
                    created_at double precision NOT NULL,
                    used_at double precision,
                    PRIMARY KEY (user_id, digest)
                )
                """
            ]),
        // Wrong recovery tries (SQLite's v13).
        Migration(
            name: "v13-recovery-tries",
            statements: [
                """
                CREATE TABLE failed_recoveries (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    phone text NOT NULL,
                    client text,
                    failed_at double precision NOT NULL
                )
                """,
                "CREATE INDEX failed_recoveries_by_phone ON failed_recoveries (phone, failed_at)",
                "CREATE INDEX failed_recoveries_by_client ON failed_recoveries (client, failed_at)",
                "CREATE INDEX failed_recoveries_by_time ON failed_recoveries (failed_at)",
            ]),
        // The recycled-number guard (SQLite's v14).
        Migration(
            name: "v14-dormant-numbers",
            statements: [
                "ALTER TABLE users ALTER COLUMN phone DROP NOT NULL",
                "ALTER TABLE users ADD COLUMN number_proved_at double precision",
                "UPDATE users SET number_proved_at = last_sign_in_at",
                "ALTER TABLE users ALTER COLUMN number_proved_at SET NOT NULL",
                "ALTER TABLE users ADD COLUMN detached_phone text CHECK (detached_phone \(e164))",
                "ALTER TABLE users ADD COLUMN detached_at double precision",
                "ALTER TABLE users ADD CHECK ((phone IS NULL) = (detached_at IS NOT NULL))",
                "ALTER TABLE users ADD CHECK ((detached_phone IS NULL) = (detached_at IS NULL))",
                "CREATE INDEX users_by_detached_phone ON users (detached_phone) WHERE detached_phone IS NOT NULL",
                "ALTER TABLE sessions ADD COLUMN claim_user_id bigint REFERENCES users(id) ON DELETE CASCADE",
                "CREATE INDEX sessions_by_claim ON sessions (claim_user_id) WHERE claim_user_id IS NOT NULL",
            ]),
        // A number's end without a next one, and a start without a previous one (SQLite's v15).
        Migration(
            name: "v15-number-gaps",
            statements: [
                "ALTER TABLE number_changes ALTER COLUMN old_phone DROP NOT NULL",
                "ALTER TABLE number_changes ALTER COLUMN new_phone DROP NOT NULL",
                "ALTER TABLE number_changes ADD CHECK (old_phone IS NOT NULL OR new_phone IS NOT NULL)",
                """
                INSERT INTO number_changes (user_id, old_phone, new_phone, changed_at)
                SELECT id, detached_phone, NULL, number_proved_at FROM users WHERE detached_at IS NOT NULL
                """,
            ]),
        // What happened to each account and number (SQLite's v16).
        Migration(
            name: "v16-events",
            statements: [
                """
                CREATE TABLE events (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    at double precision NOT NULL,
                    type text NOT NULL CHECK (length(type) BETWEEN 1 AND 64),
                    user_id bigint,
                    phone text,
                    detail text,
                    reference text,
                    status text,
                    app text,
                    user_agent text CHECK (octet_length(user_agent) <= 512),
                    network text
                )
                """,
                "CREATE INDEX events_by_user ON events (user_id, id) WHERE user_id IS NOT NULL",
                "CREATE INDEX events_by_time ON events (at)",
                "CREATE INDEX events_by_phone ON events (phone, at) WHERE phone IS NOT NULL",
                "CREATE INDEX events_by_reference ON events (reference) WHERE reference IS NOT NULL",
            ]),
        // A wrong recovery try, kept as a digest (SQLite's v17).
        Migration(
            name: "v17-recovery-try", statements: ["ALTER TABLE failed_recoveries ADD COLUMN try_digest bytea"]),
        // Each webhook endpoint's place in the events (SQLite's v18).
        Migration(
            name: "v18-webhook-endpoints",
            statements: [
                """
                CREATE TABLE webhook_endpoints (
                    url text PRIMARY KEY,
                    cursor bigint NOT NULL,
                    failures integer NOT NULL DEFAULT 0 CHECK (failures >= 0),
                    next_attempt_at double precision NOT NULL,
                    paused_at double precision,
                    lease_until double precision NOT NULL DEFAULT 0,
                    last_error text
                )
                """
            ]),
        // Back-Channel Logout: each grant's browser session, and the outbox's kinds (SQLite's v19).
        Migration(
            name: "v19-backchannel-logout",
            statements: [
                "ALTER TABLE oidc_grants ADD COLUMN sid text CHECK (sid IS NULL OR length(sid) = 32)",
                "CREATE INDEX oidc_grants_by_sid ON oidc_grants (sid, client_id) WHERE sid IS NOT NULL",
                """
                ALTER TABLE webhook_endpoints ADD COLUMN kind text NOT NULL DEFAULT 'webhook'
                    CHECK (kind IN ('webhook', 'backchannel_logout'))
                """,
            ]),
        // The provider's breaker (SQLite's v20).
        Migration(
            name: "v20-provider-health",
            statements: [
                """
                CREATE TABLE provider_health (
                    channel text PRIMARY KEY CHECK (channel IN ('sms', 'voice')),
                    failures integer NOT NULL CHECK (failures > 0),
                    paused_until double precision
                )
                """
            ]),
        // The operators' console: who acted on an account, and why (SQLite's v21).
        Migration(
            name: "v21-operator-actions",
            statements: [
                "ALTER TABLE events ADD COLUMN actor text CHECK (actor IS NULL OR char_length(actor) BETWEEN 1 AND 32)",
                "ALTER TABLE events ADD COLUMN reason text CHECK (reason IS NULL OR char_length(reason) BETWEEN 1 AND 500)",
            ]),
        // The console's apps (SQLite's v22).
        Migration(
            name: "v22-oidc-apps",
            statements: [
                """
                CREATE TABLE oidc_apps (
                    client_id text PRIMARY KEY CHECK (char_length(client_id) BETWEEN 1 AND 64),
                    name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 64),
                    redirect_uris text NOT NULL CHECK (char_length(redirect_uris) BETWEEN 1 AND 6000),
                    secret_sha256 bytea NOT NULL CHECK (octet_length(secret_sha256) = 32),
                    retiring_secret_sha256 bytea CHECK (retiring_secret_sha256 IS NULL OR octet_length(retiring_secret_sha256) = 32),
                    retiring_until double precision,
                    disabled_at double precision,
                    created_at double precision NOT NULL
                )
                """
            ]),
        // The operators' enrollment links (SQLite's v23).
        Migration(
            name: "v23-operator-enrollments",
            statements: [
                """
                CREATE TABLE operator_enrollments (
                    token_sha256 bytea PRIMARY KEY CHECK (octet_length(token_sha256) = 32),
                    phone text NOT NULL,
                    expires_at double precision NOT NULL,
                    used_at double precision
                )
                """
            ]),
        // An exchange's sends in a window, by the exchange itself (SQLite's v24).
        Migration(
            name: "v24-code-sends-by-exchange",
            statements: ["CREATE INDEX code_sends_by_exchange ON code_sends ((substr(phone, 1, 8)), sent_at)"]),
        // The console's glance by the hour, kept by triggers (SQLite's v25).
        Migration(name: "v25-hourly-counts", statements: hourlyCounts),
        // The spend budget's windows a minute at a time, kept by a trigger (SQLite's v26).
        Migration(name: "v26-budget-minutes", statements: budgetMinutes),
    ]
}
