import GRDB

/// The whole SQLite schema as named, forward-only migrations, in the order they were added; a
/// database remembers which it has run (GRDB's `grdb_migrations`), so each runs once. Add a
/// new one at the end; never change one that has shipped. The CHECK constraints repeat the
/// domain's limits, so a bug that slips past the rules is still refused by the database.
///
/// | name | what it adds |
/// | --- | --- |
/// | `v1-sign-in` | users, codes (`verifications`), sessions |
/// | `v2-send-and-failure-limits` | `code_sends` and `failed_checks`, the sending and lock windows |
/// | `wallet-v1` | the wallet: profiles, accounts, operations, one-time form keys |
/// | `devices-v1` | remembered devices ("Remember this phone for 30 days"), and each session's browser for "Your devices" |
/// | `v3-spend-and-bound-codes` | the send-time index (spend budget), the client of each failure, the holder of each code |
/// | `wallet-v2-key-fingerprints` | each one-time key's request fingerprint (older keys have none) |
/// | `v3-sign-in-starts` | `sign_in_starts`, the window of sign-ins each client started |
/// | `v4-last-wrong-code` | each code's last wrong try |
/// | `v5-delivery` | each send's channel, cost, reference, delivery status and whether its code was used; each code's send |
/// | `v6-budget-count` | the send-time index back to the time alone, and the sends costing more than a text apart (the budget's sum) |
/// | `v7-passkeys` | passkeys, their challenges, and each person's WebAuthn user handle and answer to the offer |
/// | `v8-oidc` | the OpenID Connect provider's grants, codes, refresh tokens and consents; how each session signed in |
/// | `v9-proved-at` | when each session's person last proved they hold the number or a passkey |
/// | `v10-number-changes` | each change of an account's number |
/// | `v11-by-call` | whether a session's (and an app's grant's) code came by call |
/// | `v12-recovery-codes` | each account's recovery codes, as keyed digests |
/// | `v13-recovery-tries` | wrong tries at "Lost your phone or number?", by number and by client |
/// | `v14-dormant-numbers` | when each account's number last proved itself; accounts detached from a number that changed hands; sign-ins waiting on "Is this your account?" |
/// | `v15-number-gaps` | the months a detached account's number was not its own |
/// | `v16-events` | what happened to each account and number (EventsCore) |
/// | `v17-recovery-try` | each wrong recovery try as a digest, so a resent form is not counted twice |
/// | `v18-webhook-endpoints` | each webhook endpoint's cursor, failures, next try, pause and lease |
/// | `v19-backchannel-logout` | each grant's browser session (`sid`), and the apps' logout addresses |
/// | `v20-provider-health` | the provider's breaker, per channel |
/// | `v21-operator-actions` | who acted on an account in the console, and why |
/// | `v22-oidc-apps` | the console's apps (OpenID Connect clients) |
/// | `v23-operator-enrollments` | the operators' enrollment links |
/// | `v24-code-sends-by-exchange` | an exchange's sends by the exchange itself |
/// | `v25-hourly-counts` | the glance's hours: sends and sign-ins counted per hour by triggers (`SQLiteMigrations+HourlyCounts`) |
/// | `v26-budget-minutes` | the spend budget's minutes: what each minute's sends cost, kept by triggers (`SQLiteMigrations+BudgetMinutes`) |
enum SQLiteMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-sign-in") { db in
            let e164 = "GLOB '+1[2-9][0-9][0-9][2-9][0-9][0-9][0-9][0-9][0-9][0-9]'"
            try db.execute(
                sql: """
                    CREATE TABLE users (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        phone TEXT NOT NULL UNIQUE CHECK (phone \(e164)),
                        created_at REAL NOT NULL,
                        last_sign_in_at REAL NOT NULL
                    );
                    CREATE TABLE verifications (
                        phone TEXT PRIMARY KEY NOT NULL CHECK (phone \(e164)),
                        code_digest BLOB NOT NULL CHECK (length(code_digest) = 32),
                        sent_at REAL NOT NULL,
                        expires_at REAL NOT NULL CHECK (expires_at > sent_at),
                        failed_attempts INTEGER NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0)
                    ) WITHOUT ROWID;
                    CREATE TABLE sessions (
                        key BLOB PRIMARY KEY NOT NULL CHECK (length(key) = 32),
                        pending_phone TEXT CHECK (pending_phone \(e164)),
                        user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
                        created_at REAL NOT NULL,
                        last_seen_at REAL NOT NULL,
                        expires_at REAL NOT NULL,
                        absolute_expires_at REAL NOT NULL,
                        CHECK ((pending_phone IS NULL) <> (user_id IS NULL))
                    ) WITHOUT ROWID;
                    CREATE INDEX sessions_by_expiry ON sessions(expires_at);
                    CREATE INDEX sessions_by_user ON sessions(user_id);
                    CREATE INDEX verifications_by_expiry ON verifications(expires_at);
                    """)
        }
        migrator.registerMigration("v2-send-and-failure-limits") { db in
            try db.execute(
                sql: """
                    CREATE TABLE code_sends (
                        id INTEGER PRIMARY KEY,
                        phone TEXT NOT NULL,
                        client TEXT,
                        sent_at REAL NOT NULL
                    );
                    CREATE INDEX code_sends_by_phone ON code_sends(phone, sent_at);
                    CREATE INDEX code_sends_by_client ON code_sends(client, sent_at);
                    CREATE TABLE failed_checks (
                        id INTEGER PRIMARY KEY,
                        phone TEXT NOT NULL,
                        failed_at REAL NOT NULL
                    );
                    CREATE INDEX failed_checks_by_phone ON failed_checks(phone, failed_at);
                    """)
        }
        migrator.registerMigration("wallet-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE wallet_profiles (
                        user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                        display_name TEXT NOT NULL CHECK (length(display_name) BETWEEN 1 AND 40)
                    );
                    CREATE TABLE accounts (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        name TEXT NOT NULL COLLATE NOCASE CHECK (length(name) BETWEEN 1 AND 40),
                        balance_cents INTEGER NOT NULL DEFAULT 0
                            CHECK (balance_cents >= 0 AND balance_cents <= 100000000000000),
                        created_at REAL NOT NULL,
                        UNIQUE (user_id, name)
                    );
                    CREATE TABLE operations (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                        kind TEXT NOT NULL CHECK (kind IN ('deposit', 'withdrawal', 'transfer_in', 'transfer_out')),
                        amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
                        balance_after_cents INTEGER NOT NULL CHECK (balance_after_cents >= 0),
                        counterparty_account_id INTEGER,
                        created_at REAL NOT NULL
                    );
                    CREATE INDEX operations_by_account ON operations(account_id, id);
                    CREATE TABLE wallet_operation_keys (
                        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        key TEXT NOT NULL,
                        action TEXT NOT NULL,
                        account_id INTEGER,
                        operation_id INTEGER,
                        created_at REAL NOT NULL,
                        PRIMARY KEY (user_id, key)
                    ) WITHOUT ROWID;
                    CREATE INDEX wallet_operation_keys_by_age ON wallet_operation_keys(created_at);
                    """)
        }
        migrator.registerMigration("v3-spend-and-bound-codes") { db in
            try db.execute(
                sql: """
                    CREATE INDEX code_sends_by_time ON code_sends(sent_at);
                    ALTER TABLE failed_checks ADD COLUMN client TEXT;
                    CREATE INDEX failed_checks_by_client ON failed_checks(client, failed_at);
                    ALTER TABLE verifications ADD COLUMN holder BLOB CHECK (holder IS NULL OR length(holder) = 32);
                    """)
        }
        migrator.registerMigration("devices-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE devices (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        key BLOB NOT NULL UNIQUE CHECK (length(key) = 32),
                        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        created_at REAL NOT NULL,
                        last_used_at REAL NOT NULL,
                        expires_at REAL NOT NULL CHECK (expires_at > created_at),
                        user_agent TEXT CHECK (length(user_agent) <= 512),
                        session_key BLOB CHECK (session_key IS NULL OR length(session_key) = 32)
                    );
                    CREATE INDEX devices_by_user ON devices(user_id);
                    CREATE INDEX devices_by_expiry ON devices(expires_at);
                    ALTER TABLE sessions ADD COLUMN user_agent TEXT CHECK (length(user_agent) <= 512);
                    ALTER TABLE sessions ADD COLUMN api INTEGER NOT NULL DEFAULT 0 CHECK (api IN (0, 1));
                    """)
        }
        migrator.registerMigration("wallet-v2-key-fingerprints") { db in
            try db.execute(
                sql: """
                    ALTER TABLE wallet_operation_keys ADD COLUMN request_fingerprint BLOB
                        CHECK (request_fingerprint IS NULL OR length(request_fingerprint) = 32);
                    """)
        }
        migrator.registerMigration("v3-sign-in-starts") { db in
            try db.execute(
                sql: """
                    CREATE TABLE sign_in_starts (
                        id INTEGER PRIMARY KEY,
                        client TEXT NOT NULL,
                        started_at REAL NOT NULL
                    );
                    CREATE INDEX sign_in_starts_by_client ON sign_in_starts(client, started_at);
                    """)
        }
        migrator.registerMigration("v4-last-wrong-code") { db in
            try db.execute(
                sql: """
                    ALTER TABLE verifications ADD COLUMN last_wrong_digest BLOB
                        CHECK (last_wrong_digest IS NULL OR length(last_wrong_digest) = 32);
                    """)
        }
        migrator.registerMigration("v5-delivery") { db in
            func reference(_ column: String) -> String {
                "\(column) IS NULL OR (length(\(column)) = 32 AND \(column) NOT GLOB '*[^0-9a-f]*')"
            }
            func word(_ column: String, _ most: Int) -> String {
                "\(column) IS NULL OR (length(\(column)) BETWEEN 1 AND \(most) AND \(column) NOT GLOB '*[^A-Za-z0-9_-]*')"
            }
            try db.execute(
                sql: """
                    ALTER TABLE code_sends ADD COLUMN channel TEXT NOT NULL DEFAULT 'sms'
                        CHECK (channel IN ('sms', 'voice'));
                    ALTER TABLE code_sends ADD COLUMN cost INTEGER NOT NULL DEFAULT 1 CHECK (cost BETWEEN 1 AND 1000);
                    ALTER TABLE code_sends ADD COLUMN reference TEXT CHECK (\(reference("reference")));
                    ALTER TABLE code_sends ADD COLUMN provider_id TEXT CHECK (\(word("provider_id", 64)));
                    ALTER TABLE code_sends ADD COLUMN status TEXT NOT NULL DEFAULT 'sending'
                        CHECK (status IN ('sending', 'queued', 'sent', 'delivered', 'undelivered', 'failed'));
                    ALTER TABLE code_sends ADD COLUMN status_at REAL;
                    ALTER TABLE code_sends ADD COLUMN verified_at REAL;
                    ALTER TABLE code_sends ADD COLUMN error_code TEXT CHECK (\(word("error_code", 16)));
                    CREATE UNIQUE INDEX code_sends_by_reference ON code_sends(reference);
                    DROP INDEX code_sends_by_time;
                    CREATE INDEX code_sends_by_time ON code_sends(sent_at, cost);
                    CREATE INDEX verifications_by_holder ON verifications(holder);
                    ALTER TABLE verifications ADD COLUMN send_reference TEXT CHECK (\(reference("send_reference")));
                    """)
        }
        // The budget's sum of costs over (sent_at, cost) read each entry's cost: 1.24x the CPU per
        // sign-in of counting the time index alone (bench/results/signin-cpu-issue26.md). Costs
        // above 1 (calls) are few: a partial index holds them, and the sum is the count plus
        // their extra.
        migrator.registerMigration("v6-budget-count") { db in
            try db.execute(
                sql: """
                    DROP INDEX code_sends_by_time;
                    CREATE INDEX code_sends_by_time ON code_sends(sent_at);
                    CREATE INDEX code_sends_costly_by_time ON code_sends(sent_at, cost) WHERE cost > 1;
                    """)
        }
        // Passkeys: their challenges (one per owner, short-lived, used once), the passkeys, and
        // each person's WebAuthn user handle and answer to the offer.
        migrator.registerMigration("v7-passkeys") { db in
            try db.execute(
                sql: """
                    ALTER TABLE users ADD COLUMN passkey_handle BLOB
                        CHECK (passkey_handle IS NULL OR length(passkey_handle) = 32);
                    ALTER TABLE users ADD COLUMN passkey_offer_dismissed_at REAL;
                    CREATE UNIQUE INDEX users_by_passkey_handle ON users(passkey_handle);
                    CREATE TABLE passkeys (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        credential_id BLOB NOT NULL UNIQUE CHECK (length(credential_id) BETWEEN 1 AND 1023),
                        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        public_key BLOB NOT NULL CHECK (length(public_key) BETWEEN 1 AND 2048),
                        sign_count INTEGER NOT NULL CHECK (sign_count BETWEEN 0 AND 4294967295),
                        aaguid BLOB NOT NULL CHECK (length(aaguid) = 16),
                        name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
                        created_at REAL NOT NULL,
                        last_used_at REAL,
                        flagged_at REAL
                    );
                    CREATE INDEX passkeys_by_user ON passkeys(user_id);
                    CREATE TABLE passkey_challenges (
                        key BLOB PRIMARY KEY CHECK (length(key) = 32),
                        purpose TEXT NOT NULL CHECK (purpose IN ('register', 'sign_in')),
                        challenge BLOB NOT NULL CHECK (length(challenge) = 32),
                        user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
                        client TEXT,
                        created_at REAL NOT NULL,
                        expires_at REAL NOT NULL
                    );
                    CREATE INDEX passkey_challenges_by_expiry ON passkey_challenges(expires_at);
                    CREATE INDEX passkey_challenges_by_client ON passkey_challenges(client, created_at);
                    """)
        }
        // The OpenID Connect provider: each sign-in's grant (its family), its code, its refresh
        // tokens, and each person's consents.
        migrator.registerMigration("v8-oidc") { db in
            try db.execute(
                sql: """
                    CREATE TABLE oidc_grants (
                        family BLOB PRIMARY KEY CHECK (length(family) = 16),
                        client_id TEXT NOT NULL CHECK (length(client_id) BETWEEN 1 AND 64),
                        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        created_at REAL NOT NULL,
                        revoked_at REAL
                    );
                    CREATE INDEX oidc_grants_by_user ON oidc_grants(user_id, client_id);
                    CREATE TABLE oidc_codes (
                        hash BLOB PRIMARY KEY CHECK (length(hash) = 32),
                        family BLOB NOT NULL REFERENCES oidc_grants(family) ON DELETE CASCADE,
                        redirect_uri TEXT NOT NULL CHECK (length(redirect_uri) BETWEEN 1 AND 2048),
                        code_challenge TEXT CHECK (code_challenge IS NULL OR length(code_challenge) = 43),
                        nonce TEXT CHECK (nonce IS NULL OR length(nonce) BETWEEN 1 AND 512),
                        scope TEXT NOT NULL CHECK (length(scope) <= 64),
                        auth_time REAL NOT NULL,
                        method TEXT NOT NULL CHECK (method IN ('sms', 'passkey', 'device')),
                        expires_at REAL NOT NULL,
                        used_at REAL
                    );
                    CREATE INDEX oidc_codes_by_expiry ON oidc_codes(expires_at);
                    CREATE TABLE oidc_refresh_tokens (
                        hash BLOB PRIMARY KEY CHECK (length(hash) = 32),
                        family BLOB NOT NULL REFERENCES oidc_grants(family) ON DELETE CASCADE,
                        scope TEXT NOT NULL CHECK (length(scope) <= 64),
                        auth_time REAL NOT NULL,
                        method TEXT NOT NULL CHECK (method IN ('sms', 'passkey', 'device')),
                        expires_at REAL NOT NULL,
                        used_at REAL
                    );
                    CREATE INDEX oidc_refresh_tokens_by_expiry ON oidc_refresh_tokens(expires_at);
                    CREATE INDEX oidc_refresh_tokens_by_family ON oidc_refresh_tokens(family);
                    ALTER TABLE sessions ADD COLUMN method TEXT NOT NULL DEFAULT 'sms'
                        CHECK (method IN ('sms', 'passkey', 'device'));
                    CREATE TABLE oidc_consents (
                        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        client_id TEXT NOT NULL CHECK (length(client_id) BETWEEN 1 AND 64),
                        scope TEXT NOT NULL CHECK (length(scope) <= 64),
                        granted_at REAL NOT NULL,
                        PRIMARY KEY (user_id, client_id)
                    );
                    """)
        }
        // When the session's person last proved they hold the number or a passkey: the sign-in's
        // own time for a code or a passkey, and for a remembered phone the sign-in by code that
        // remembered it (OpenID Connect's auth_time and max_age). NULL in older rows.
        migrator.registerMigration("v9-proved-at") { db in
            try db.execute(sql: "ALTER TABLE sessions ADD COLUMN proved_at REAL")
        }
        // Each change of an account's number: which numbers it held and when (the download of
        // everything kept, and which rows of sends were the person's).
        migrator.registerMigration("v10-number-changes") { db in
            let e164 = "GLOB '+1[2-9][0-9][0-9][2-9][0-9][0-9][0-9][0-9][0-9][0-9]'"
            try db.execute(
                sql: """
                    CREATE TABLE number_changes (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        old_phone TEXT NOT NULL CHECK (old_phone \(e164)),
                        new_phone TEXT NOT NULL CHECK (new_phone \(e164) AND new_phone <> old_phone),
                        changed_at REAL NOT NULL
                    );
                    CREATE INDEX number_changes_by_user ON number_changes(user_id, changed_at);
                    """)
        }
        // Whether a sign-in's code was read out on a call (OpenID Connect's amr `tel`).
        migrator.registerMigration("v11-by-call") { db in
            for table in ["sessions", "oidc_codes", "oidc_refresh_tokens"] {
                try db.execute(
                    sql: "ALTER TABLE \(table) ADD COLUMN by_call INTEGER NOT NULL DEFAULT 0 CHECK (by_call IN (0, 1))")
            }
        }
        // Recovery codes: a keyed digest of each, and when it was used.
        migrator.registerMigration("v12-recovery-codes") { db in
            try db.execute(
                sql: """
                    CREATE TABLE recovery_codes (
                        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        digest BLOB NOT NULL CHECK (length(digest) = 32),
                        created_at REAL NOT NULL,
                        used_at REAL,
                        PRIMARY KEY (user_id, digest)
                    ) WITHOUT ROWID;
                    """)
        }
        // Wrong recovery tries: the number typed (an account's or not) and the client.
        migrator.registerMigration("v13-recovery-tries") { db in
            try db.execute(
                sql: """
                    CREATE TABLE failed_recoveries (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        phone TEXT NOT NULL,
                        client TEXT,
                        failed_at REAL NOT NULL
                    );
                    CREATE INDEX failed_recoveries_by_phone ON failed_recoveries(phone, failed_at);
                    CREATE INDEX failed_recoveries_by_client ON failed_recoveries(client, failed_at);
                    CREATE INDEX failed_recoveries_by_time ON failed_recoveries(failed_at);
                    """)
        }
        // The recycled-number guard: when the number last signed in with a code
        // (number_proved_at), and an account detached from its number (phone NULL, the number it
        // had and when kept) when the number's new holder started afresh. SQLite cannot drop NOT
        // NULL, so users is rebuilt (SQLite's twelve steps; GRDB runs a migration with foreign
        // keys off and checks them after). A sign-in waiting on "Is this your account?" is a
        // pending session that names the account (claim_user_id).
        migrator.registerMigration("v14-dormant-numbers") { db in
            let e164 = "GLOB '+1[2-9][0-9][0-9][2-9][0-9][0-9][0-9][0-9][0-9][0-9]'"
            try db.execute(
                sql: """
                    CREATE TABLE users_new (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        phone TEXT UNIQUE CHECK (phone \(e164)),
                        created_at REAL NOT NULL,
                        last_sign_in_at REAL NOT NULL,
                        passkey_handle BLOB CHECK (passkey_handle IS NULL OR length(passkey_handle) = 32),
                        passkey_offer_dismissed_at REAL,
                        number_proved_at REAL NOT NULL,
                        detached_phone TEXT CHECK (detached_phone \(e164)),
                        detached_at REAL,
                        CHECK ((phone IS NULL) = (detached_at IS NOT NULL)),
                        CHECK ((detached_phone IS NULL) = (detached_at IS NULL))
                    );
                    INSERT INTO users_new (id, phone, created_at, last_sign_in_at, passkey_handle,
                                           passkey_offer_dismissed_at, number_proved_at)
                    SELECT id, phone, created_at, last_sign_in_at, passkey_handle, passkey_offer_dismissed_at,
                           last_sign_in_at
                    FROM users;
                    DROP TABLE users;
                    ALTER TABLE users_new RENAME TO users;
                    CREATE UNIQUE INDEX users_by_passkey_handle ON users(passkey_handle);
                    CREATE INDEX users_by_detached_phone ON users(detached_phone) WHERE detached_phone IS NOT NULL;
                    ALTER TABLE sessions ADD COLUMN claim_user_id INTEGER REFERENCES users(id) ON DELETE CASCADE;
                    CREATE INDEX sessions_by_claim ON sessions(claim_user_id) WHERE claim_user_id IS NOT NULL;
                    """)
        }
        // A number's end without a next one: an account detached from its number (its new
        // holder started afresh) notes `new_phone` NULL, dated when the number last proved
        // itself, and notes `old_phone` NULL when it attaches to a number again, so the months
        // between belong to no number of its. An account detached before this notes its
        // detachment now.
        migrator.registerMigration("v15-number-gaps") { db in
            let e164 = "GLOB '+1[2-9][0-9][0-9][2-9][0-9][0-9][0-9][0-9][0-9][0-9]'"
            try db.execute(
                sql: """
                    CREATE TABLE number_changes_new (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        old_phone TEXT CHECK (old_phone \(e164)),
                        new_phone TEXT CHECK (new_phone \(e164) AND new_phone <> old_phone),
                        changed_at REAL NOT NULL,
                        CHECK (old_phone IS NOT NULL OR new_phone IS NOT NULL)
                    );
                    INSERT INTO number_changes_new (id, user_id, old_phone, new_phone, changed_at)
                    SELECT id, user_id, old_phone, new_phone, changed_at FROM number_changes;
                    DROP TABLE number_changes;
                    ALTER TABLE number_changes_new RENAME TO number_changes;
                    CREATE INDEX number_changes_by_user ON number_changes(user_id, changed_at);
                    INSERT INTO number_changes (user_id, old_phone, new_phone, changed_at)
                    SELECT id, detached_phone, NULL, number_proved_at FROM users WHERE detached_at IS NOT NULL;
                    """)
        }
        // What happened to each account and number (EventsCore), written with each change.
        // No foreign key: a deleted account's own events go with it, by its deletion, and the
        // event of the deletion stays.
        migrator.registerMigration("v16-events") { db in
            try db.execute(
                sql: """
                    CREATE TABLE events (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        at REAL NOT NULL,
                        type TEXT NOT NULL CHECK (length(type) BETWEEN 1 AND 64),
                        user_id INTEGER,
                        phone TEXT,
                        detail TEXT,
                        reference TEXT,
                        status TEXT,
                        app TEXT,
                        user_agent TEXT CHECK (length(CAST(user_agent AS BLOB)) <= 512),
                        network TEXT
                    );
                    CREATE INDEX events_by_user ON events(user_id, id) WHERE user_id IS NOT NULL;
                    CREATE INDEX events_by_time ON events(at);
                    CREATE INDEX events_by_phone ON events(phone, at) WHERE phone IS NOT NULL;
                    CREATE INDEX events_by_reference ON events(reference) WHERE reference IS NOT NULL;
                    """)
        }
        // A wrong recovery try, kept as a digest: the same try sent again (Safari's Reload
        // posts the form again) is answered alike and not counted twice.
        migrator.registerMigration("v17-recovery-try") { db in
            try db.execute(sql: "ALTER TABLE failed_recoveries ADD COLUMN try_digest BLOB")
        }
        // Each webhook endpoint's place in the events (its cursor), its failures in a row, when
        // it is next tried, whether it is paused, and which instance holds it (a lease).
        migrator.registerMigration("v18-webhook-endpoints") { db in
            try db.execute(
                sql: """
                    CREATE TABLE webhook_endpoints (
                        url TEXT PRIMARY KEY,
                        cursor INTEGER NOT NULL,
                        failures INTEGER NOT NULL DEFAULT 0 CHECK (failures >= 0),
                        next_attempt_at REAL NOT NULL,
                        paused_at REAL,
                        lease_until REAL NOT NULL DEFAULT 0,
                        last_error TEXT
                    )
                    """)
        }
        // Back-Channel Logout: the browser session each grant was made from (its `sid`), so an
        // app is told when that session ends; and the outbox's second kind of reader, the apps'
        // logout addresses, beside the webhook endpoints.
        migrator.registerMigration("v19-backchannel-logout") { db in
            try db.execute(
                sql: """
                    ALTER TABLE oidc_grants ADD COLUMN sid TEXT CHECK (sid IS NULL OR length(sid) = 32);
                    CREATE INDEX oidc_grants_by_sid ON oidc_grants(sid, client_id) WHERE sid IS NOT NULL;
                    ALTER TABLE webhook_endpoints ADD COLUMN kind TEXT NOT NULL DEFAULT 'webhook'
                        CHECK (kind IN ('webhook', 'backchannel_logout'));
                    """)
        }
        // The provider's breaker: each channel's failures in a row and its pause, shared by
        // every instance (AuthCore's ProviderHealth).
        migrator.registerMigration("v20-provider-health") { db in
            try db.execute(
                sql: """
                    CREATE TABLE provider_health (
                        channel TEXT PRIMARY KEY CHECK (channel IN ('sms', 'voice')),
                        failures INTEGER NOT NULL CHECK (failures > 0),
                        paused_until REAL
                    )
                    """)
        }
        // The operators' console: who acted on an account, and why (ConsoleCore).
        migrator.registerMigration("v21-operator-actions") { db in
            try db.execute(
                sql: """
                    ALTER TABLE events ADD COLUMN actor TEXT CHECK (actor IS NULL OR length(actor) BETWEEN 1 AND 32);
                    ALTER TABLE events ADD COLUMN reason TEXT CHECK (reason IS NULL OR length(reason) BETWEEN 1 AND 500);
                    """)
        }
        // The console's apps: OpenID Connect clients kept in the database (OIDCCore's StoredApp).
        migrator.registerMigration("v22-oidc-apps") { db in
            try db.execute(
                sql: """
                    CREATE TABLE oidc_apps (
                        client_id TEXT PRIMARY KEY NOT NULL CHECK (length(client_id) BETWEEN 1 AND 64),
                        name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
                        redirect_uris TEXT NOT NULL CHECK (length(redirect_uris) BETWEEN 1 AND 6000),
                        secret_sha256 BLOB NOT NULL CHECK (length(secret_sha256) = 32),
                        retiring_secret_sha256 BLOB CHECK (retiring_secret_sha256 IS NULL OR length(retiring_secret_sha256) = 32),
                        retiring_until REAL,
                        disabled_at REAL,
                        created_at REAL NOT NULL
                    ) WITHOUT ROWID
                    """)
        }
        // The operators' enrollment links (ConsoleCore): a passkey for the console, vouched for by the shell.
        migrator.registerMigration("v23-operator-enrollments") { db in
            try db.execute(
                sql: """
                    CREATE TABLE operator_enrollments (
                        token_sha256 BLOB PRIMARY KEY NOT NULL CHECK (length(token_sha256) = 32),
                        phone TEXT NOT NULL,
                        expires_at REAL NOT NULL,
                        used_at REAL
                    ) WITHOUT ROWID
                    """)
        }
        // An exchange's sends in a window, read on every send (its limit and the pumping
        // breaker): through the phone index's range the planner walked every send of the
        // window instead (code_sends_by_time), 2-3 ms at 5,000 sends (docs/BENCHMARKS.md).
        migrator.registerMigration("v24-code-sends-by-exchange") { db in
            try db.execute(sql: "CREATE INDEX code_sends_by_exchange ON code_sends(substr(phone, 1, 8), sent_at)")
        }
        // The console's glance by the hour, kept as sends and sign-ins happen: grouping 48 hours
        // of rows at each view grew with the traffic (docs/BENCHMARKS.md). Triggers keep the
        // counts equal to the rows' on every write (a send, its delivery, its use, the pruning).
        migrator.registerMigration("v25-hourly-counts") { db in
            try db.execute(sql: SQLiteMigrations.hourlyCounts)
        }
        // The spend budget's windows a minute at a time: counting each send of the window on
        // every send grew with the budget (docs/BENCHMARKS.md).
        migrator.registerMigration("v26-budget-minutes") { db in
            try db.execute(sql: SQLiteMigrations.budgetMinutes)
        }
        return migrator
    }
}
