import EventsCore
import Foundation

/// "This number is new to me", on "Is this your account?": a fresh account for the number, and
/// the old one detached from it.
public struct FreshStart: Sendable {
    /// The session waiting on the answer.
    public var claim: Data
    public var phone: PhoneNumber
    /// The account the number was on when the question was asked.
    public var account: Int64
    /// The signed-in session of the fresh account.
    public var signedIn: Data
    public var userAgent: String?
    public var now: Date
    /// Answered through the JSON API: the session begun is an API token.
    public var api: Bool
    /// The client that answered, for the events.
    public var client: String?

    public init(
        claim: Data, phone: PhoneNumber, account: Int64, signedIn: Data, userAgent: String?, now: Date, api: Bool = false,
        client: String? = nil
    ) {
        self.api = api
        self.client = client
        self.claim = claim
        self.phone = phone
        self.account = account
        self.signedIn = signedIn
        self.userAgent = userAgent
        self.now = now
    }
}

/// What "This number is new to me" came to.
public enum FreshStartOutcome: Sendable, Equatable {
    /// A fresh account holds the number, signed in; the old one (if still on it) is detached.
    case started
    /// "Is this your account?" is no longer waiting.
    case claimEnded
}

/// What ``SignInRules/startFresh(_:given:)`` reads: the waiting session, the number's account,
/// and that account's sessions and remembered phones (they end with the detaching); the number
/// is locked, so a sign-in or a change to it waits.
public struct FreshStartReads: ReadPlan {
    public let list: ReadList
    private let session: Read<SessionRecord?>
    private let dormancy: Read<Dormancy?>
    private let places: Read<SignedInPlaces>

    init(_ request: FreshStart) {
        let now = request.now.timeIntervalSince1970
        var list = ReadList(locks: [.phone(request.phone.e164)])
        session = list.session(request.claim)
        dormancy = list.dormancy(phone: request.phone.e164, device: nil, now: now)
        places = list.signedInPlaces(PlacesRead(user: request.account, now: now))
        self.list = list
    }

    public func found(in answers: Answers) throws -> FreshStartFound {
        FreshStartFound(
            session: try answers[session], dormancy: try answers[dormancy], places: try answers[places])
    }
}

/// What ``FreshStartReads`` found.
public struct FreshStartFound: Sendable, Equatable {
    var session: SessionRecord?
    var dormancy: Dormancy?
    var places: SignedInPlaces
}

extension SignInRules {
    public func freshStartReads(_ request: FreshStart) -> FreshStartReads {
        FreshStartReads(request)
    }

    /// "This number is new to me": while the question still waits and the account is still on
    /// the number and still dormant, it is detached from the number, its sessions and remembered phones
    /// end and its apps' grants with them, and a fresh account for the number signs in. The old
    /// account keeps its money, passkeys and recovery codes, frozen, for its owner to reach
    /// through "Lost your phone or number?".
    public func startFresh(_ request: FreshStart, given found: FreshStartFound) -> AuthDecision<FreshStartOutcome> {
        let now = request.now.timeIntervalSince1970
        let phone = request.phone.e164
        guard let session = found.session, Self.isLive(session, now: now), session.claimUserID == request.account,
            session.pendingPhone == phone
        else { return AuthDecision(.claimEnded) }
        // The question is about that account while it is dormant: once its owner proved it (in
        // another tab, or on another phone with a code of the number), or it was detached and the
        // number holds another account, this answer has nothing left to decide.
        guard let dormancy = found.dormancy, dormancy.user == request.account, isDormant(dormancy, now: now) else {
            return AuthDecision(.claimEnded, changes: [.deleteSession(key: request.claim)])
        }
        return AuthDecision(
            .started,
            changes: [
                .deleteSession(key: request.claim), .detachAccount(user: request.account, phone: phone, at: now),
                Self.event(
                    .accountDetached, at: now, user: request.account, phone: phone, userAgent: request.userAgent,
                    client: request.client),
            ]
                + Self.ending(found.places, of: request.account, at: now, why: .accountChanged)
                + [.revokeApps(user: request.account, at: now)]
                + newSession(
                    phone: phone, session: request.signedIn, at: now, userAgent: request.userAgent,
                    api: request.api, method: .code, client: request.client))
    }
}
