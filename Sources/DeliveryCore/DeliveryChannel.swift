/// How a code reaches a person: a text, or a phone call that reads it out (for a landline, or
/// a phone whose texts do not arrive).
public enum DeliveryChannel: String, Sendable, Equatable, CaseIterable {
    case sms
    case voice
}
