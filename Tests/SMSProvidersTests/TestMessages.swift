import AuthCore
import DeliveryCore

// What every provider suite sends: one text and one call to (530) 555-0123, with one reference.

/// The text's words.
let body = "123456 is your Phone Login verification code.\n\n@login.example.com #123456"
/// The reference both sends carry (their callback address ends with it).
let reference = SendReference(Substring("0123456789abcdef0123456789abcdef"))!
/// A text of ``body``.
let message = CodeMessage(to: try! PhoneNumber(parsing: "(530) 555-0123"), content: .text(body), reference: reference)
/// A call that reads out 123456.
let call = CodeMessage(
    to: try! PhoneNumber(parsing: "(530) 555-0123"),
    content: .call(
        CallScript(
            CallScript.Words(
                opening: "Your Phone Login verification code is", again: "Again.", againWritten: "Again:",
                closing: "Goodbye.", voice: ""),
            digits: "123456")),
    reference: reference)
