import AccountCore
import AuthCore
import Encodings
import EventsCore
import Foundation

/// What ``AccountCore/AccountStore`` reads and writes, once for both databases: the account
/// page's facts, the download of everything kept about a person, and the deletion.
public enum AccountQueries {
    // MARK: The account page

    static let accountOfNumber = SQL("SELECT id FROM users WHERE phone = $1")
    static let detachedFromNumber = SQL(
        """
        SELECT id, created_at, detached_at FROM users WHERE detached_phone = $1 AND phone IS NULL
        ORDER BY detached_at DESC, id DESC LIMIT 20
        """)

    public static func detachedAccounts(from phone: String) -> Step<[DetachedAccountSummary]> {
        .rows(Statement(detachedFromNumber, phone)) { rows in
            .done(
                try rows.map {
                    DetachedAccountSummary(
                        user: try $0.get("id"), createdAt: try $0.get("created_at"), detachedAt: try $0.get("detached_at"))
                })
        }
    }

    public static func account(holding phone: String) -> Step<Int64?> {
        .rows(Statement(accountOfNumber, phone)) { rows in .done(try rows.first.map { try $0.get("id") }) }
    }

    static let summaryOfUser = SQL(
        """
        SELECT u.phone, u.created_at,
               (SELECT max(n.changed_at) FROM number_changes n WHERE n.user_id = u.id) AS phone_since,
               (SELECT count(*) FROM passkeys p WHERE p.user_id = u.id) AS passkeys,
               (SELECT count(*) FROM devices d WHERE d.user_id = u.id AND d.expires_at > $2) AS remembered,
               (SELECT count(*) FROM oidc_consents c WHERE c.user_id = u.id) AS apps,
               (SELECT CAST(coalesce(sum(a.balance_cents), 0) AS BIGINT) FROM accounts a WHERE a.user_id = u.id)
                   AS money_held,
               (SELECT count(*) FROM recovery_codes r WHERE r.user_id = u.id AND r.used_at IS NULL) AS recovery_left,
               (SELECT max(r.created_at) FROM recovery_codes r WHERE r.user_id = u.id) AS recovery_made_at
        FROM users u WHERE u.id = $1
        """)

    public static func summary(user: Int64, now: Double) -> Step<AccountSummary?> {
        .rows(Statement(summaryOfUser, user, now)) { rows in
            .done(
                try rows.first.map { row in
                    let created: Double = try row.get("created_at")
                    var summary = AccountSummary(
                        phone: try row.get("phone"), createdAt: created,
                        phoneSince: try row.optional("phone_since") ?? created, passkeys: try row.get("passkeys"),
                        rememberedPhones: try row.get("remembered"), connectedApps: try row.get("apps"),
                        moneyHeldCents: try row.get("money_held"), recoveryCodesLeft: try row.get("recovery_left"))
                    summary.recoveryCodesMadeAt = try row.optional("recovery_made_at")
                    return summary
                })
        }
    }

    // MARK: Download

    static let person = SQL(
        """
        SELECT u.id, u.phone, u.created_at, u.last_sign_in_at, u.passkey_offer_dismissed_at, p.display_name
        FROM users u LEFT JOIN wallet_profiles p ON p.user_id = u.id
        WHERE u.id = $1
        """)
    static let personLocked = SQL("SELECT id, phone, created_at FROM users WHERE id = $1 FOR UPDATE")
    static let numberChanges = SQL(
        "SELECT old_phone, new_phone, changed_at FROM number_changes WHERE user_id = $1 ORDER BY changed_at, id")
    static let sessions = SQL(
        """
        SELECT created_at, last_seen_at, expires_at, method, by_call, user_agent, api FROM sessions
        WHERE user_id = $1 AND expires_at > $2 ORDER BY created_at
        """)
    static let devices = SQL(
        """
        SELECT created_at, last_used_at, expires_at, user_agent FROM devices
        WHERE user_id = $1 AND expires_at > $2 ORDER BY created_at
        """)
    static let passkeys = SQL(
        "SELECT name, aaguid, created_at, last_used_at, flagged_at FROM passkeys WHERE user_id = $1 ORDER BY id")
    static let consents = SQL(
        "SELECT client_id, scope, granted_at FROM oidc_consents WHERE user_id = $1 ORDER BY granted_at, client_id")
    static let grants = SQL(
        "SELECT client_id, created_at, revoked_at FROM oidc_grants WHERE user_id = $1 ORDER BY created_at")
    static let sendsWhileHeld = SQL(
        """
        SELECT phone, sent_at, channel, status, status_at, verified_at, error_code FROM code_sends
        WHERE phone = $1 AND sent_at >= $2 AND sent_at <= $3 ORDER BY sent_at, id
        """)
    static let failuresWhileHeld = SQL(
        """
        SELECT phone, failed_at FROM failed_checks
        WHERE phone = $1 AND failed_at >= $2 AND failed_at <= $3 ORDER BY failed_at, id
        """)
    static let walletAccounts = SQL(
        "SELECT id, name, balance_cents, created_at FROM accounts WHERE user_id = $1 ORDER BY id")
    static let walletOperations = SQL(
        """
        SELECT o.account_id, o.kind, o.amount_cents, o.balance_after_cents, o.created_at, c.name AS counterparty
        FROM operations o JOIN accounts a ON a.id = o.account_id
        LEFT JOIN accounts c ON c.id = o.counterparty_account_id AND c.user_id = a.user_id
        WHERE a.user_id = $1 ORDER BY o.id
        """)

    /// When the number's previous holder last moved off it (a detachment is dated at the
    /// number's last proof, months before its new holder's rows, so it fences nothing).
    static let vacatedBefore = SQL(
        "SELECT max(changed_at) AS vacated FROM number_changes WHERE old_phone = $1 AND user_id <> $2 AND changed_at <= $3")

    /// `held`, each fenced off from its previous holder's rows (``AccountCore/AccountRules/fenced(_:vacatedAt:)``).
    static func fenced(_ held: [HeldNumber], of user: Int64) -> Step<[HeldNumber]> {
        .all(
            held.map { number in
                .rows(Statement(vacatedBefore, number.phone, user, number.from)) { rows in
                    .done(AccountRules.fenced(number, vacatedAt: try rows.first?.optional("vacated")))
                }
            })
    }

    /// Past the end of time, for a number held now (a bound both databases compare).
    static let openEnd = 1e300

    /// Everything kept about `user` (``AccountCore/AccountExport``); nil for no such user.
    /// `codeLifetime`: a number's sends count from that long before the account got it.
    public static func export(user: Int64, now: Double, codeLifetime: Double) -> Step<AccountExport?> {
        .rows(Statement(person, user)) { rows in
            guard let row = rows.first else { return .done(nil) }
            let phone: String = try row.get("phone")
            let created: Double = try row.get("created_at")
            let person = AccountExport.Person(
                id: try row.get("id"), phoneNumber: phone, name: try row.optional("display_name"),
                createdAt: date(created), lastSignInAt: date(try row.get("last_sign_in_at")),
                passkeyOfferDismissedAt: try row.optional("passkey_offer_dismissed_at").map(date))
            return changes(of: user).then { changes in
                let held = AccountRules.numbersHeld(
                    now: phone, createdAt: created, changes: changes, codeLifetime: codeLifetime)
                return fenced(held, of: user).then { rest(of: user, person: person, held: $0, now: now) }
            }
        }
    }

    static func changes(of user: Int64) -> Step<[NumberChange]> {
        .rows(Statement(numberChanges, user)) { rows in
            .done(
                try rows.map {
                    NumberChange(
                        from: try $0.optional("old_phone"), to: try $0.optional("new_phone"), at: try $0.get("changed_at"))
                })
        }
    }

    private static func rest(
        of user: Int64, person: AccountExport.Person, held: [HeldNumber], now: Double
    ) -> Step<AccountExport?> {
        let sends = Step<[[AccountExport.CodeSent]]>.all(
            held.map { number in
                .rows(Statement(sendsWhileHeld, number.phone, number.rowsFrom, number.until ?? openEnd)) {
                    .done(
                        try $0.map {
                            AccountExport.CodeSent(
                                phoneNumber: try $0.get("phone"), sentAt: date(try $0.get("sent_at")),
                                channel: try $0.get("channel"), status: try $0.get("status"),
                                statusAt: try $0.optional("status_at").map(date),
                                verifiedAt: try $0.optional("verified_at").map(date),
                                errorCode: try $0.optional("error_code"))
                        })
                }
            })
        let failures = Step<[[AccountExport.FailedCode]]>.all(
            held.map { number in
                .rows(Statement(failuresWhileHeld, number.phone, number.rowsFrom, number.until ?? openEnd)) {
                    .done(
                        try $0.map {
                            AccountExport.FailedCode(phoneNumber: try $0.get("phone"), at: date(try $0.get("failed_at")))
                        })
                }
            })
        return .rows(Statement(sessions, user, now)) { sessionRows in
            let sessions = try sessionRows.map {
                AccountExport.Session(
                    createdAt: date(try $0.get("created_at")), lastSeenAt: date(try $0.get("last_seen_at")),
                    expiresAt: date(try $0.get("expires_at")), signedInWith: (SignInMethod(stored: try $0.get("method"), byCall: try $0.get("by_call")) ?? .code).rawValue,
                    userAgent: try $0.optional("user_agent"), api: try $0.get("api"))
            }
            return .rows(Statement(devices, user, now)) { deviceRows in
                let devices = try deviceRows.map {
                    AccountExport.RememberedPhone(
                        createdAt: date(try $0.get("created_at")), lastUsedAt: date(try $0.get("last_used_at")),
                        expiresAt: date(try $0.get("expires_at")), userAgent: try $0.optional("user_agent"))
                }
                return .rows(Statement(passkeys, user)) { passkeyRows in
                    let passkeys = try passkeyRows.map {
                        AccountExport.Passkey(
                            name: try $0.get("name"),
                            aaguid: (try $0.get("aaguid") as Data).hexString,
                            createdAt: date(try $0.get("created_at")),
                            lastUsedAt: try $0.optional("last_used_at").map(date),
                            flaggedAt: try $0.optional("flagged_at").map(date))
                    }
                    return .rows(Statement(consents, user)) { consentRows in
                        let apps = try consentRows.map {
                            AccountExport.ConnectedApp(
                                clientID: try $0.get("client_id"), scope: try $0.get("scope"),
                                grantedAt: date(try $0.get("granted_at")))
                        }
                        return .rows(Statement(grants, user)) { grantRows in
                            let signIns = try grantRows.map {
                                AccountExport.AppSignIn(
                                    clientID: try $0.get("client_id"), createdAt: date(try $0.get("created_at")),
                                    revokedAt: try $0.optional("revoked_at").map(date))
                            }
                            return sends.then { sends in
                                failures.then { failures in
                                    wallet(of: user).map { wallet in
                                        AccountExport(
                                            exportedAt: date(now), account: person,
                                            phoneNumbers: held.map {
                                                AccountExport.Number(
                                                    phoneNumber: $0.phone, from: date($0.from), until: $0.until.map(date))
                                            },
                                            sessions: sessions, rememberedPhones: devices, passkeys: passkeys,
                                            connectedApps: apps, appSignIns: signIns, codesSent: sends.flatMap { $0 },
                                            failedCodes: failures.flatMap { $0 }, wallet: wallet)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    static func wallet(of user: Int64) -> Step<[AccountExport.WalletAccount]> {
        .rows(Statement(walletAccounts, user)) { accountRows in
            .rows(Statement(walletOperations, user)) { operationRows in
                var byAccount: [Int64: [AccountExport.Transaction]] = [:]
                for row in operationRows {
                    byAccount[try row.get("account_id"), default: []].append(
                        AccountExport.Transaction(
                            kind: try row.get("kind"), amountCents: try row.get("amount_cents"),
                            balanceAfterCents: try row.get("balance_after_cents"), at: date(try row.get("created_at")),
                            counterparty: try row.optional("counterparty")))
                }
                return .done(
                    try accountRows.map { row in
                        let id: Int64 = try row.get("id")
                        return AccountExport.WalletAccount(
                            name: try row.get("name"), balanceCents: try row.get("balance_cents"),
                            createdAt: date(try row.get("created_at")), transactions: byAccount[id] ?? [])
                    })
            }
        }
    }

    private static func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

    // MARK: Recovery codes

    static let deleteRecoveryCodes = SQL("DELETE FROM recovery_codes WHERE user_id = $1")
    static let insertRecoveryCode = SQL("INSERT INTO recovery_codes (user_id, digest, created_at) VALUES ($1, $2, $3)")

    /// The user's codes replaced by `digests`.
    public static func replaceRecoveryCodes(user: Int64, digests: [Data], at: Double) -> Step<Int> {
        .execute(
            [Statement(deleteRecoveryCodes, user)] + digests.map { Statement(insertRecoveryCode, user, $0, at) }
                + [EventQueries.insert(Event(.recoveryCodesMade, at: at, user: user))])
    }
}
