import Foundation

/// What ``SignInRules/check(_:given:)`` reads: the session, the phone's code, the phone's
/// failures in the lock window and the client's in its window; the phone (and the client) are
/// locked.
public struct CheckReads: ReadPlan {
    public let list: ReadList
    private let session: Read<SessionRecord?>
    private let code: Read<StoredCode?>
    private let phoneFailures: Read<LimitWindow>
    private let clientFailures: Read<LimitWindow>
    private let numberOwners: Read<NumberOwners?>
    private let places: Read<SignedInPlaces>
    private let dormancy: Read<Dormancy?>

    init(_ request: CodeCheck, policy: SignInPolicy) {
        let phone = request.phone.e164
        let now = request.now.timeIntervalSince1970
        // A change of number also locks the number it starts from: two changes of one account
        // run one after the other, and the second sees where the first left it.
        var moving: (user: Int64, from: String?, recovering: Bool)? = nil
        if case .moveAccount(let user, let from, notice: _, let recovering) = request.purpose {
            moving = (user, from, recovering)
        }
        var list = ReadList(
            locks: [.phone(phone)] + (moving?.from.map { [.phone($0)] } ?? [])
                + (request.client.map { [.client($0)] } ?? []))
        session = list.session(request.session)
        code = list.code(phone)
        phoneFailures = list.phoneLock(of: phone, policy, now: now)
        clientFailures =
            request.client.map {
                list.limit(
                    .clientFailures, of: $0, max: policy.maxFailuresPerClient, per: policy.failuresPerClientWindow,
                    now: now)
            } ?? .known(.notCounted)
        if let moving {
            numberOwners = list.numberOwners(user: moving.user, phone: phone)
        } else {
            numberOwners = .known(nil)
        }
        // A recovery ends every session and remembered phone of the account: read them here,
        // in the transaction that moves it.
        if let moving, moving.recovering {
            places = list.signedInPlaces(PlacesRead(user: moving.user, now: now))
        } else {
            places = .known(SignedInPlaces(sessions: [], devices: []))
        }
        // A sign-in reads whether the number's account may be someone else's now.
        if request.purpose == .signIn && policy.dormantAfter > 0 {
            dormancy = list.dormancy(phone: phone, device: request.device, now: now)
        } else {
            dormancy = .known(nil)
        }
        self.list = list
    }

    public func found(in answers: Answers) throws -> CheckFound {
        CheckFound(
            session: try answers[session], code: try answers[code], phoneFailures: try answers[phoneFailures],
            clientFailures: try answers[clientFailures], numberOwners: try answers[numberOwners],
            places: try answers[places], dormancy: try answers[dormancy])
    }
}

/// What ``CheckReads`` found.
public struct CheckFound: Sendable, Equatable {
    var session: SessionRecord?
    var code: StoredCode?
    var phoneFailures: LimitWindow
    var clientFailures: LimitWindow
    /// For a change of number: who holds what (nil when signing in).
    var numberOwners: NumberOwners?
    /// For a recovery: the account's sessions and remembered phones, to end (none otherwise).
    var places: SignedInPlaces = SignedInPlaces(sessions: [], devices: [])
    /// For a sign-in: the number's account, for the recycled-number guard (nil: none, or off).
    var dormancy: Dormancy? = nil
}
