/// How "Recent activity" says an event: the sentence's key in the string catalogs
/// (`activity.*`) and the values it takes. Numbers are shown as `(•••) •••-0123`: the page may
/// be read over someone's shoulder, and the person knows their own number.
public struct ActivityLine: Sendable, Equatable {
    public var key: String
    public var values: [String: String]
    /// The sentence names the browser (`{device}`: the one whose sign-in ended), so the line's
    /// details do not name it again as if it had done it.
    public var namesDevice: Bool

    public init(_ stored: StoredEvent) {
        let event = stored.event
        var values: [String: String] = [:]
        if let phone = event.phone { values["phone"] = Self.masked(phone) }
        if let name = event.detail, event.type.detailIsAName { values["name"] = name }
        if let app = event.app { values["app"] = app }
        self.values = values
        key = "activity." + Self.sentence(event)
        namesDevice = event.type == .signedOut && event.detail != SessionEnd.signedOut.rawValue
    }

    /// The sentence's name within `activity.`.
    static func sentence(_ event: Event) -> String {
        switch event.type {
        case .signedIn:
            switch event.detail.flatMap(SignInWay.init) {
            case .call: "signedInByCall"
            case .passkey: "signedInWithPasskey"
            case .rememberedPhone: "signedInRemembered"
            case .recoveryCode: "signedInWithRecoveryCode"
            case .confirmedByText: "confirmedByText"
            case .confirmedByCall: "confirmedByCall"
            case .text, nil: "signedInByText"
            }
        case .signedOut:
            switch event.detail.flatMap(SessionEnd.init) {
            case .signedOutElsewhere: "signedOutElsewhere"
            case .expired: "sessionExpired"
            case .accountChanged: "signedOutByChange"
            case .signedOut, nil: "signedOut"
            }
        case .codeSent: event.detail == CodeChannel.call.rawValue ? "codeCalled" : "codeTexted"
        case .wrongCode: "wrongCode"
        case .locked: "locked"
        case .deviceRemembered: "deviceRemembered"
        case .deviceForgotten: "deviceForgotten"
        case .passkeyCreated: "passkeyCreated"
        case .passkeyRemoved: "passkeyRemoved"
        case .passkeyTurnedOff: "passkeyTurnedOff"
        case .numberChanged: event.detail == "recovered" ? "recovered" : "numberChanged"
        case .recoveryCodesMade: "recoveryCodesMade"
        case .recoveryProved: "recoveryProved"
        case .wrongRecoveryCode: "wrongRecoveryCode"
        case .claimAsked: "claimAsked"
        case .claimProved: event.detail == SignInWay.passkey.rawValue ? "claimProvedByPasskey" : "claimProvedByCode"
        case .accountDetached: "accountDetached"
        case .appConnected: "appConnected"
        case .appDisconnected: "appDisconnected"
        case .accountDeleted: "accountDeleted"
        case .operatorAction:
            switch event.detail.flatMap(OperatorAction.init) {
            case .signOutEverywhere: "operatorSignedOut"
            case .unlock: "operatorUnlocked"
            case .removePasskey: "operatorRemovedPasskey"
            case .disconnectApp: "operatorDisconnectedApp"
            default: "operatorActed"
            }
        }
    }

    /// `+15305550123` as `(•••) •••-0123`.
    static func masked(_ phone: String) -> String {
        "(•••)\u{00A0}•••-" + String(phone.suffix(4))
    }

    /// Every key a line can have, for the catalogs' test.
    public static var keys: Set<String> {
        var events: [Event] = []
        for type in EventType.allCases {
            events.append(Event(type, at: 0))
            for detail in SignInWay.allCases.map(\.rawValue) + SessionEnd.allCases.map(\.rawValue)
                + CodeChannel.allCases.map(\.rawValue) + OperatorAction.allCases.map(\.rawValue) + ["recovered"]
            {
                events.append(Event(type, at: 0, detail: detail))
            }
        }
        return Set(events.map { "activity." + sentence($0) })
    }
}

extension EventType {
    /// The detail is a name the person gave (a passkey's), shown as it is (escaped).
    var detailIsAName: Bool { [.passkeyCreated, .passkeyRemoved, .passkeyTurnedOff].contains(self) }
}
