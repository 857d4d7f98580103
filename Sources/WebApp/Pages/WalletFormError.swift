import WalletCore
import Wording

/// A refused wallet change and the form it came from, so the page shows the sentence next to
/// that form's field instead of above the Deposit form, whatever was sent.
///
/// The template marks the field the sentence is about with `aria-invalid` and points its
/// `aria-describedby` at the sentence, gives it `autofocus` (focus moves there without a
/// script) and opens the `<details>` the form is folded in.
struct WalletFormError: Sendable {
    /// The forms of Home and the account page, each named as the templates name its error.
    enum Form: String, Sendable {
        case deposit, withdraw, transfer, rename, delete, addAccount, setName
    }

    let form: Form
    let error: WalletError

    /// The template key of the input the sentence is about: the form's own, except a transfer
    /// to the account it is from, which is about the "To" choice. `nil` for Delete, which has
    /// only its button.
    var field: String? {
        switch form {
        case .delete: nil
        case .transfer where error == .sameAccount: "transferTo"
        default: form.rawValue
        }
    }

    /// What the templates read: `errors.<form>.message` next to the form, `invalid.<field>` on
    /// the input.
    func templateValues(_ words: Catalog) -> [String: Any] {
        ["errors": [form.rawValue: ["message": words(error.saying)]], "invalid": field.map { [$0: true] } ?? [:]]
    }
}
